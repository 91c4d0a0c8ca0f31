#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ism authors
"""DPDK's own rawdev_autotest (dpdk-test, Debian package dpdk-dev) on small
but valid ISM devices: it runs rte_rawdev_selftest() on every rawdev, so
the selftest must fit any configuration (1-byte DMBs, a single DMB).

    rawdev_autotest.py PMD_PLUGIN TAG DPDK_BINDIR

The dpdk-test of the DPDK the plugin was built against (DPDK_BINDIR).
dpdk-test runs through tests/lib/ism_eal.py (a deadline, a --file-prefix
of its own with TAG in it, its runtime directory removed); the ism_shm
device's rendezvous directory must be empty at the end. Exit status 0
pass, 1 fail, 77 skipped (that DPDK has no dpdk-test: Debian package dpdk-dev, or a DPDK
built with -Dtests=false).
"""

import os
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "lib"))
import ism_eal  # noqa: E402  (tests/lib)

DEVS = ("ism_lo0", "ism_lo1", "ism_lo2", "ism_shm0")


def main():
    if len(sys.argv) != 4:
        print(__doc__, file=sys.stderr)
        return 2
    pmd, tag, bindir = sys.argv[1:]
    dpdk_test = os.path.join(bindir, "dpdk-test")
    if not os.access(dpdk_test, os.X_OK):
        print("SKIP: %s not found (Debian package dpdk-dev)" % dpdk_test)
        return 77
    plug_args, plug_env = ism_eal.plugin_load([pmd])
    with tempfile.TemporaryDirectory(prefix="ism-rawdev-autotest.") as fab:
        prefix = ism_eal.file_prefix(tag, "rawdev")
        p = ism_eal.run(
            [dpdk_test] + ism_eal.eal_args(0, prefix, extra=plug_args + [
                "--vdev=ism_lo0,max_dmb_len=64",
                "--vdev=ism_lo1,max_dmb_len=1,max_dmbs=1",
                "--vdev=ism_lo2",
                "--vdev=ism_shm0,dir=%s,max_dmb_len=1,max_dmbs=1" % fab]),
            "rawdev_autotest", 120, prefix=prefix, echo="plain",
            env=dict(plug_env, DPDK_TEST="rawdev_autotest"))
        left = os.listdir(fab)
    rc = p.proc.returncode
    if rc != 0:
        print("FAIL: rawdev_autotest exited with %d" % rc)
        return 1
    if left:
        print("FAIL: left in the rendezvous directory: %s" % " ".join(left))
        return 1
    # Each device name must appear with "Passed": a plugin that did not
    # load would make the test pass on the skeleton rawdev alone.
    for d in DEVS:
        if not p.grep(r"\(%s\) selftest: Passed" % d):
            print("FAIL: no passed selftest of %s" % d)
            return 1
    print("PASS: rawdev_autotest on %s" % " ".join(DEVS))
    return 0


if __name__ == "__main__":
    sys.exit(main())
