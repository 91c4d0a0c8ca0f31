#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ism authors
"""DPDK's own unit tests (dpdk-test's fast tests) of the s390x port, under
QEMU's user-mode emulator (make s390x-dpdk-test).

    dpdk_unit_tests.py <dpdk-test build dir> [test ...]

The build dir is devtools/dpdk-version.sh dpdk-test 25.11-s390x's. Each test
runs as DPDK's meson runs its fast tests (app/test/suites/meson.build:
DPDK_TEST=<name>, --no-huge -m 2048, -d <drivers>, its own --file-prefix),
the program under qemu-s390x-static. The result of each is checked against
EMULATION_FAILS (the tests that cannot pass under user-mode emulation, with
why; the table of doc/guides/platform/ibm_z.rst): status 1 if another test
fails or one of those passes (then the list and the guide are out of date).
"""

import os
import shutil
import signal
import subprocess
import sys
import time

# EAL, ring, mbuf, mempool and other tests without the hash library's tables
# (the libraries of the s390x DPDK of the tests; more are not built).
TESTS = """
alarm_autotest atomic_autotest bitcount_autotest bitmap_autotest
bitops_autotest bitset_autotest byteorder_autotest cmdline_autotest
common_autotest cpuflags_autotest debug_autotest devargs_autotest
eal_flags_a_opt_autotest eal_flags_misc_autotest eal_fs_autotest
errno_autotest fbarray_autotest interrupt_autotest kvargs_autotest
lcore_var_autotest lcores_autotest logs_autotest malloc_autotest
mcslock_autotest memcpy_autotest memory_autotest memzone_autotest
multiprocess_autotest per_lcore_autotest pflock_autotest prefetch_autotest
rcu_qsbr_autotest rwlock_test1_autotest rwlock_rda_autotest
seqlock_autotest service_autotest spinlock_autotest stack_autotest
stack_lf_autotest string_autotest tailq_autotest telemetry_data_autotest
telemetry_json_autotest threads_autotest ticketlock_autotest
trace_autotest user_delay_us vdev_autotest version_autotest
ring_autotest ring_pmd_autotest soring_autotest ptr_compress_autotest
mbuf_autotest mempool_autotest
cfgfile_autotest cksum_autotest crc_autotest meter_autotest
net_ether_autotest net_ipv6_autotest rawdev_autotest
""".split()

# Test -> why it cannot pass under user-mode emulation. Filled from runs;
# doc/guides/platform/ibm_z.rst has the same table.
EMULATION_FAILS = {
    "bitmap_autotest": "its half-line scan clears min(half a line, 1000) "
                       "bits of a 1000-bit map: on 256-byte lines (2048 "
                       "bits) all of them, and the scan finds none",
    "cksum_autotest": "the IPv6 L4 checksum verification fails on s390x "
                      "(IPv4 passes): not yet explained",
    "cmdline_autotest": "test_cmdline_num.c parses into a uint64_t and "
                        "compares all of it after an 8-, 16- or 32-bit "
                        "parse: right on little-endian CPUs only",
    "debug_autotest": "a forked child's rte_exit(0) ends with SIGABRT "
                      "under qemu-s390x",
    "eal_flags_a_opt_autotest": "starts secondary processes with exec of "
                                "itself: an s390x program cannot be "
                                "executed without binfmt_misc",
    "eal_flags_misc_autotest": "needs a mounted hugetlbfs",
    "malloc_autotest": "test_realloc expects another heap layout; DPDK "
                       "runs it with hugepages only",
    "memzone_autotest": "its socket check fails without hugepages; DPDK "
                        "runs it with hugepages only",
    "multiprocess_autotest": "secondary processes by exec, as "
                             "eal_flags_a_opt_autotest",
}

WRAPPER = ["qemu-s390x-static", "-L", "/usr/s390x-linux-gnu"]
TIMEOUT = 300
# MiB of memory: DPDK runs its fast tests with 2048; memory_autotest reads
# and writes every byte of it, minutes under emulation.
MEM = "512"


def run(build, name):
    """One test: (status, seconds, last lines of its output)."""
    prefix = "s390x_ut_%s_%d" % (name, os.getpid())
    cmd = WRAPPER + [os.path.join(build, "app", "dpdk-test"),
                     "--no-huge", "-m", MEM,
                     "-d", os.path.join(build, "drivers"),
                     "--file-prefix=" + prefix]
    env = dict(os.environ, DPDK_TEST=name)
    start = time.monotonic()
    proc = subprocess.Popen(cmd, env=env, stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            start_new_session=True)
    try:
        out, _ = proc.communicate(timeout=TIMEOUT)
        status = {0: "pass", 77: "skip"}.get(proc.returncode,
                                              "fail(%d)" % proc.returncode)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, _ = proc.communicate()
        status = "timeout"
    secs = time.monotonic() - start
    for d in ("/var/run/dpdk", os.path.join(
            os.environ.get("XDG_RUNTIME_DIR", "/tmp"), "dpdk")):
        shutil.rmtree(os.path.join(d, prefix), ignore_errors=True)
    tail = out.decode(errors="replace").strip().splitlines()[-6:]
    return status, secs, tail


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    build = sys.argv[1]
    tests = sys.argv[2:] or TESTS
    if not shutil.which(WRAPPER[0]):
        print("SKIP: no %s ('devtools/setup.sh s390x')" % WRAPPER[0])
        sys.exit(77)
    bad = []
    for name in tests:
        status, secs, tail = run(build, name)
        expected = name in EMULATION_FAILS
        ok = status in ("pass", "skip") if not expected else \
            status not in ("pass", "skip")
        print("%-28s %-9s %6.1f s%s" % (name, status, secs,
              "" if ok else "   UNEXPECTED"), flush=True)
        if not ok or status not in ("pass", "skip"):
            for line in tail:
                print("    | " + line)
        if not ok:
            bad.append(name)
    if bad:
        print("unexpected results (see EMULATION_FAILS and the guide): "
              + " ".join(bad))
        sys.exit(1)


if __name__ == "__main__":
    main()
