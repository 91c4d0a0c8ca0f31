#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ism authors
#
# One meson configuration of the tree, in a build directory of its own
# (kept: a second run only rebuilds what changed):
#   config_test.sh <case> <source root> <build dir> <tag> <dpdk_sdk>
#                  [meson options]
# The build uses the DPDK of PKG_CONFIG_PATH and the given dpdk_sdk. Then
# dpdk-test-ism's functional suite on loopback devices; in a build with an
# absolute pmd_dir, the install test (tests/install/install_test.sh:
# libdpdk-ism.pc's pmd_dir, EAL -d from it). Case subproject: a parent project with this tree in
# subprojects/, a program of it on dependency('libdpdk-ism').
set -eu
case=$1
src=$2
out=$3
tag=$4
sdk=$5
shift 5

run_functional() {
	prog=$1
	pfx=ism-config-$case-$tag-$$
	rc=0
	timeout 290 "$prog" -l 0,1 --no-huge -m 512 --no-shconf --no-pci \
		--file-prefix "$pfx" -- functional || rc=$?
	rm -rf "/var/run/dpdk/$pfx" "${XDG_RUNTIME_DIR:-/tmp}/dpdk/$pfx"
	[ $rc = 0 ] || { echo "FAIL: functional suite ($case): $rc"; exit 1; }
}

if [ "$case" = subproject ]; then
	parent=$out/parent
	mkdir -p "$parent/subprojects"
	ln -sfn "$src" "$parent/subprojects/dpdk-ism"
	cat > "$parent/meson.build" <<'EOB'
project('ism-parent', 'c')
subproject('dpdk-ism', default_options: ['tests=false', 'examples=false',
    'dpdk_sdk=' + get_option('dpdk_sdk')])
ism = dependency('libdpdk-ism')
# client.c: tests/install/ism_static.c, with the tests' assertions.
executable('parent-client', 'client.c', dependencies: ism,
    c_args: ['-DALLOW_EXPERIMENTAL_API', '-I' + meson.current_source_dir()
        / 'subprojects' / 'dpdk-ism' / 'app' / 'test-ism'])
EOB
	echo "option('dpdk_sdk', type: 'string')" > "$parent/meson_options.txt"
	cp "$src/tests/install/ism_static.c" "$parent/client.c"
	if [ ! -f "$out/build/build.ninja" ]; then
		meson setup "$out/build" "$parent" -Ddpdk_sdk="$sdk"
	fi
	ninja -C "$out/build"
	timeout 60 "$out/build/parent-client" ||
		{ echo "FAIL: the parent project's program"; exit 1; }
	# The subproject's own programs, built as part of the parent.
	run_functional "$out/build/subprojects/dpdk-ism/app/test-ism/dpdk-test-ism"
	echo "PASS: subproject"
	exit 0
fi

if [ ! -f "$out/build.ninja" ]; then
	meson setup "$out" "$src" -Dfuzz=false -Dexamples=false \
		-Ddpdk_sdk="$sdk" "$@"
fi
ninja -C "$out"
run_functional "$out/app/test-ism/dpdk-test-ism"
case " $* " in
*" -Dpmd_dir=/"*)
	"$src/tests/install/install_test.sh" "$out" "$src/tests/install" \
		"$src/app/test-ism" "$out/config" ;;
esac
echo "PASS: $case"
