#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ism authors
"""ISM_SKIP_VM=1 skips every VM test of the build (python3 standard
library).

The VM tests are those of suites vm and emul, and any other test whose
program is a script that uses the VM harness (tests/vm/vmlib.py): a guest
test registered without those suites is one too. Each is started as meson
would (its command, environment and working directory from the build's
meson-info/intro-tests.json) with ISM_SKIP_VM=1 and must exit 77 at once,
saying that ISM_SKIP_VM is why (not another reason that hides a missing
check: the sanitizer build, a missing QEMU or kernel).

    skip_vm_test.py BUILD_DIR
"""

import json
import os
import re
import signal
import subprocess
import sys

VM_SUITES = {"vm", "emul"}
# A skip costs a Python start-up and a few stat() calls; a test still
# running after this booted or built something.
DEADLINE_S = 60
SELF = "vm-skip-env"


def uses_vmlib(cmd):
    """Whether a script in cmd imports the VM harness."""
    for arg in cmd:
        if arg.endswith(".py") and os.path.isfile(arg):
            with open(arg, encoding="utf-8") as f:
                if re.search(r"^\s*import vmlib\b|^\s*from vmlib import",
                             f.read(), re.M):
                    return True
    return False


def vm_tests(build):
    with open(os.path.join(build, "meson-info", "intro-tests.json"),
              encoding="utf-8") as f:
        tests = json.load(f)
    out = []
    for t in tests:
        if t["name"] == SELF:
            continue
        suites = {s.split(":")[-1] for s in t["suite"]}
        if suites & VM_SUITES or uses_vmlib(t["cmd"]):
            out.append(t)
    return out


def kill_group(p, sig):
    try:
        os.killpg(p.pid, sig)
    except ProcessLookupError:
        pass


def run(t, build):
    env = dict(os.environ)
    env.update(t.get("env") or {})
    env["ISM_SKIP_VM"] = "1"
    # A session of its own: a test that did not skip has started QEMU or
    # a build; the whole group goes (SIGTERM first: the harnesses clean up
    # their guests on it).
    p = subprocess.Popen(t["cmd"], cwd=t.get("workdir") or build, env=env,
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         stdin=subprocess.DEVNULL, text=True,
                         start_new_session=True)
    try:
        out = p.communicate(timeout=DEADLINE_S)[0]
    except subprocess.TimeoutExpired:
        kill_group(p, signal.SIGTERM)
        try:
            p.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            pass
        # Whatever of the group outlived its leader.
        kill_group(p, signal.SIGKILL)
        p.communicate()
        return "still running after %d s" % DEADLINE_S
    if p.returncode != 77:
        return "exit %d, not 77: %s" % (p.returncode, out[-400:])
    if not re.search(r"^SKIP: .*ISM_SKIP_VM", out, re.M):
        return "skipped for another reason: %s" % out[-400:]
    return None


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    build = os.path.abspath(sys.argv[1])
    tests = vm_tests(build)
    if not tests:
        print("FAIL: no VM test in %s" % build)
        return 1
    fails = 0
    for t in tests:
        why = run(t, build)
        print("%-24s %s" % (t["name"], why or "skipped (ISM_SKIP_VM)"))
        if why:
            fails += 1
    if fails:
        print("FAIL: %d of %d VM tests did not skip for ISM_SKIP_VM=1"
              % (fails, len(tests)))
        return 1
    print("PASS: %d VM tests skipped with ISM_SKIP_VM=1" % len(tests))
    return 0


if __name__ == "__main__":
    sys.exit(main())
