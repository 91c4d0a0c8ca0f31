# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ism authors
#
# Thin wrapper: set-up (devtools/setup.sh), meson configure, build, run.
#   make demo   the main job: move_data throughput table on loopback devices
#   make test   every test: meson test in the release build (with a short
#               libFuzzer run, option fuzz; the docs are built there, a
#               warning fails it; DPDK's forbidden-token lint) and in an
#               ASan+UBSan build (with RTE_ISM_DEBUG fast-path checks);
#               the suites against DPDK 24.11 and 25.11 (suite versions),
#               built once per machine from Debian's source packages
#               (devtools/dpdk-version.sh: trixie's 24.11, sid's 25.11;
#               $DPDK_SRC, a directory of release tarballs, overrides);
#               DPDK 25.11.2 with this tree in its own source tree, built
#               with gcc and with clang (suite intree, below)
#   make test DPDK=25.11   (or 24.11) builds that DPDK the same way once per
#               machine (about 2 minutes on 2 cores), then runs the suites
#               against it
#   make test-emul  the tests of the emulated ISM function in QEMU guests
#               (suite emul): QEMU with the device and the s390x guests'
#               kernels built once per machine (devtools/qemu-ism.sh,
#               devtools/linux-s390x.sh, devtools/linux-s390x-sid.sh:
#               Linux 7.2 from sid's source, ism_vfio_pci and SMC built
#               in) and DPDK
#               25.11 with the s390x port, then the suite; not part of
#               make test (the builds take longer than its budget)
#   make test-intree  DPDK 25.11.2 built with this tree inside its own
#               source tree, with gcc and with clang (werror,
#               check_includes, clang with enable_stdatomic), and DPDK's
#               fast-tests with ism_autotest in each (suite intree,
#               devtools/dpdk-intree.sh; part of make test too): about
#               11 minutes from scratch on 2 idle cores (processor time
#               gcc 727 s, clang 592 s, AMD EPYC, 2026-12-07), 10-34
#               minutes each on 2 cores shared with other builds
#   make test-dpdk-series  DPDK's checkpatches.sh, check-maintainers.sh and
#               check-doc-vs-code.sh over the tree as a series against
#               DPDK 25.11.2 (suite dpdk-series); not part of make test
#               until its findings are fixed
#   make s390x  the tree cross-built for s390x (IBM Z, big-endian) and its
#               suites run under QEMU's user-mode emulator (suite s390x,
#               part of make test): the cross compiler and emulator from
#               Debian, DPDK 25.11 with the port of platform/s390x built
#               once per machine (doc/guides/platform/ibm_z.rst);
#               make s390x-full adds the emulated tests left out for time
#               and make s390x-dpdk-test (DPDK's own unit tests of the port
#               under the emulator; builds dpdk-test once per machine)
#   make bench  the benchmark suite (devtools/bench.sh, about 1 minute on
#               2 cores): CSV, charts and a summary of ratios with their
#               intervals in build/perf-results; then net_ism against
#               net_memif with testpmd (devtools/bench_testpmd.py --quick:
#               64 and 1500 B copy, txonly->rxonly and io forwarding,
#               interleaved pairs of 5 s, as many as fit into 7.5 minutes):
#               at most about 10 minutes in all
#   make bench-full  the same with the long testpmd comparison (copy and
#               zero copy, with and without hugepages, 3 pairs of 8 s per
#               case: about 30 minutes on 2 cores)

BUILD ?= build
ASAN_BUILD ?= build-asan
MESON_OPTS ?=
# The release build also builds the libFuzzer harnesses (with clang) and
# the documentation (sphinx, doxygen).
BUILD_OPTS = -Dfuzz=true -Denable_docs=true
ASAN_OPTS = -Db_sanitize=address,undefined -Db_lundef=false \
	-Dism_debug=true -Dbuildtype=debugoptimized

.PHONY: all setup build build-asan vm-setup dpdk-versions s390x-setup \
	s390x s390x-full s390x-dpdk-test demo test test-emul qemu-ism linux-s390x \
	linux-s390x-sid test-intree test-dpdk-series \
	bench bench-full clean

all: build

setup:
	@./devtools/setup.sh

build: setup
	@if [ -f $(BUILD)/build.ninja ]; then \
		meson configure $(BUILD) $(BUILD_OPTS) $(MESON_OPTS); \
	else \
		meson setup $(BUILD) $(BUILD_OPTS) $(MESON_OPTS); \
	fi
	ninja -C $(BUILD)

build-asan: setup
	@[ -f $(ASAN_BUILD)/build.ninja ] || \
		meson setup $(ASAN_BUILD) $(ASAN_OPTS) $(MESON_OPTS)
	ninja -C $(ASAN_BUILD)

# Through tests/lib/ism_eal.py: a file prefix of its own, a deadline, and
# EAL's runtime directory removed afterwards.
demo: build
	python3 tests/lib/ism_eal.py run --quiet --tag demo --name demo \
		--timeout 600 -- ./$(BUILD)/app/test-ism/dpdk-test-ism -l 0 \
		--no-huge -m 1024 --no-shconf --no-pci -- demo

# The VM tests (the ism bus's vfio test, the ivshmem backend's) boot QEMU
# guests; their one-time preparation (QEMU from Debian, a kernel image
# unpacked under /var/tmp) is part of the test set-up. ISM_SKIP_VM=1 skips
# it (the tests then report SKIP).
vm-setup:
	@[ -n "$(ISM_SKIP_VM)" ] || tests/vm/prepare.sh

# QEMU with the emulated ISM function, once per machine into
# /var/cache/dpdk-ism (devtools/qemu-ism.sh).
qemu-ism:
	./devtools/qemu-ism.sh prefix

# The s390x guest's kernel (Debian's Linux 6.1 with the ism driver, SMC and
# vfio-pci) and busybox, once per machine (devtools/linux-s390x.sh).
linux-s390x:
	./devtools/linux-s390x.sh prefix

# The s390x guest of the IBM Z user's path: Linux 7.2 built from sid's
# linux-source with ism_vfio_pci, dibs, ism and SMC built in, once per
# machine (devtools/linux-s390x-sid.sh).
linux-s390x-sid:
	./devtools/linux-s390x-sid.sh prefix

# The other DPDK versions (24.11, 25.11; with $DPDK_SRC its tarballs'),
# their sources fetched from Debian and built once per machine into a
# cache outside the tree (devtools/dpdk-version.sh, which prints the
# patch level each is): the release build's suite 'versions' then runs the
# suites against each.
dpdk-versions:
	@vs=$$(./devtools/dpdk-version.sh list); \
	if [ -z "$$vs" ]; then \
		echo "make test: no DPDK tarballs in DPDK_SRC=$$DPDK_SRC"; \
		exit 1; \
	fi; \
	for v in $$vs; do \
		./devtools/dpdk-version.sh prefix $$v >/dev/null; rc=$$?; \
		if [ $$rc = 3 ]; then \
			echo "make test: no source of DPDK $$v to be had" \
				"(above): its suites are skipped"; \
		elif [ $$rc != 0 ]; then exit 1; fi; \
	done

# The s390x parts: the cross compiler and QEMU's user-mode emulator, then
# DPDK 25.11 with the s390x port, cross-built once per machine into the
# same cache.
s390x-setup:
	@./devtools/setup.sh s390x
	@./devtools/dpdk-version.sh prefix 25.11-s390x >/dev/null; rc=$$?; \
	if [ $$rc = 3 ]; then \
		echo "make test: no source of DPDK 25.11 to be had (above):" \
			"the s390x suite is skipped"; \
	elif [ $$rc != 0 ]; then exit 1; fi

s390x: build s390x-setup
	meson test -C $(BUILD) --print-errorlogs --suite s390x

# The same with the emulated tests that make test leaves out for its time
# (tests/s390x/s390x_test.sh).
s390x-full: build s390x-setup s390x-dpdk-test
	tests/s390x/s390x_test.sh $(CURDIR) $(CURDIR)/$(BUILD)/tests/s390x/build full

# DPDK's unit tests (dpdk-test's fast tests) of the port under the emulator,
# against the results the guide lists; dpdk-test is built once per machine
# in its own build dir of the cache (devtools/dpdk-version.sh dpdk-test).
s390x-dpdk-test: s390x-setup
	d=$$(./devtools/dpdk-version.sh dpdk-test 25.11-s390x) && \
		tests/s390x/dpdk_unit_tests.py "$$d"

ifeq ($(DPDK),)
test: build build-asan vm-setup dpdk-versions s390x-setup
	meson test -C $(BUILD) --print-errorlogs --no-suite emul \
		--no-suite dpdk-series
	meson test -C $(ASAN_BUILD) --print-errorlogs --no-suite emul
else
# The release build's test of that version (tests/versions): its own build
# of the tree against the DPDK built here.
test: build
	./devtools/dpdk-version.sh prefix $(DPDK)
	meson test -C $(BUILD) --print-errorlogs --suite dpdk-$(DPDK)
endif

test-intree: build dpdk-versions
	meson test -C $(BUILD) --print-errorlogs --suite intree

test-dpdk-series: build dpdk-versions
	meson test -C $(BUILD) --print-errorlogs --suite dpdk-series

test-emul: build vm-setup qemu-ism linux-s390x linux-s390x-sid s390x-setup
	meson test -C $(BUILD) --print-errorlogs --suite emul

bench: build
	BUILD=$(BUILD) ./devtools/bench.sh
	./devtools/bench_testpmd.py --build $(BUILD) --quick

bench-full: build
	BUILD=$(BUILD) ./devtools/bench.sh
	./devtools/bench_testpmd.py --build $(BUILD)

clean:
	rm -rf $(BUILD) $(ASAN_BUILD)
