#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ism authors
"""The IBM Z user's path under emulation: our s390x build in an s390x
guest, on emulated ISM functions bound to Linux's ism_vfio_pci (python3
standard library).

qemu-system-s390x of devtools/qemu-ism.sh (TCG) boots the s390x kernel
of devtools/linux-s390x-sid.sh (Linux 7.2 from sid's source, built in:
ism_vfio_pci, Linux's ism driver, SMC) with three ISM functions of one
fabric, each taking writes only as whole store blocks (the device's
default). The
guest (plan_dpdk.sh) runs the section "On an IBM Z machine" of
doc/guides/platform/ibm_z.rst as written (its doc-test block): the first
two functions to ism_vfio_pci, 1 MiB hugepages, then dpdk-test-ism of the
tree cross-built for s390x (tests/s390x/s390x_test.sh ... build) on the
two, with hugepages and with --no-huge; EAL's -b with a zPCI address;
the interrupt mode (suite intr); dpdk-ism_fwd between two processes over
them, every packet checked, while SMC-D carries checked bytes between two
AF_SMC sockets (smc_test.c) on the third function, which stays with
Linux's ism driver.

Checks: the steps' results on the console; SMC-D's sockets in mode smcd
with the third function's GID; every write of data and
commands reached the functions as one store block (the device's counts
that QEMU prints at exit: no piece taken, none refused); no guest error
in QEMU's log.

    s390x_dpdk_test.py --tag TAG --build BUILD

Skips (77) unless QEMU with the device, the kernel and DPDK 25.11 with
the s390x port are built (make test-emul builds them), and in other
builds than the release build; ISM_SKIP_VM=1 skips it.
"""

import argparse
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.realpath(os.path.join(HERE, "..", "..", ".."))
sys.path.insert(0, os.path.join(HERE, ".."))
import vmlib  # noqa: E402  (tests/vm)
from vmlib import ism_eal  # noqa: E402

CROSS = "s390x-linux-gnu-"
SYSROOT = "/usr/s390x-linux-gnu"
DOC = os.path.join(TOP, "doc", "guides", "platform", "ibm_z.rst")
FABRIC = 0x2b1
# (GID, fid, uid) of the functions: two for DPDK, one for Linux's driver.
FUNCS = ((0x2b10000000000a01, 0x11, 0x11), (0x2b10000000000b02, 0x12, 0x12),
         (0x2b10000000000c03, 0x13, 0x13))
TIMEOUT_S = 3000


def tool(script, *args):
    r = subprocess.run([os.path.join(TOP, "devtools", script)] + list(args),
                       stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                       text=True)
    return r.stdout.strip() if r.returncode == 0 else None


def ready(tag):
    """(qemu-system-s390x, kernel dir, DPDK env dict), or vmlib.Skip."""
    if os.environ.get("ISM_SKIP_VM"):
        raise vmlib.Skip("ISM_SKIP_VM is set")
    if tag != "rel":
        raise vmlib.Skip("runs in the release build only")
    prefix = os.environ.get("ISM_QEMU_PREFIX") or tool(
        "qemu-ism.sh", "find", "qemu-system-s390x")
    if not prefix:
        raise vmlib.Skip("no QEMU with the ism device: run "
                         "devtools/qemu-ism.sh prefix qemu-system-s390x "
                         "(make test-emul)")
    qemu = os.path.join(prefix, "bin", "qemu-system-s390x")
    kdir = tool("linux-s390x-sid.sh", "find")
    if not kdir:
        raise vmlib.Skip("no s390x kernel with ism_vfio_pci: run "
                         "devtools/linux-s390x-sid.sh prefix (make test-emul)")
    env = tool("dpdk-version.sh", "env", "25.11-s390x")
    if not env or not tool("dpdk-version.sh", "find", "25.11-s390x"):
        raise vmlib.Skip("DPDK 25.11 with the s390x port is not built: "
                         "make s390x-setup")
    dpdk = dict(re.findall(r"^(\w+)='?([^'\n]*)'?$", env, re.M))
    for p in (CROSS + "gcc", CROSS + "readelf", qemu):
        if shutil.which(p) is None and not os.access(p, os.X_OK):
            raise vmlib.Skip("no %s" % p)
    return qemu, kdir, dpdk


def s390x_build(build):
    """The tree cross-built for s390x (once; as the suite s390x)."""
    out = os.path.join(build, "tests", "s390x", "build")
    r = subprocess.run([os.path.join(TOP, "tests", "s390x",
                                     "s390x_test.sh"), TOP, out, "build"],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True)
    if r.returncode == 77:
        raise vmlib.Skip(r.stdout.strip().splitlines()[-1])
    ism_eal.check(r.returncode == 0, "the s390x cross build failed:\n%s"
                  % r.stdout[-3000:])
    return out


def libraries_of(dirs):
    """A vmlib.initramfs libraries(path) for s390x ELF files: the
    NEEDED closure, searched in the RUNPATH, then dirs."""
    def needed(path):
        out = subprocess.run([CROSS + "readelf", "-d", path],
                             stdout=subprocess.PIPE, text=True,
                             check=True).stdout
        names = re.findall(r"\(NEEDED\)\s+Shared library: \[(.+?)\]", out)
        rp = re.findall(r"\((?:RUNPATH|RPATH)\)\s+Library \w+: \[(.+?)\]",
                        out)
        here = os.path.dirname(os.path.realpath(path))
        search = [d.replace("$ORIGIN", here) for r in rp
                  for d in r.split(":")] + dirs
        return names, search

    def libs(path):
        seen, todo = set(), [path]
        while todo:
            names, search = needed(todo.pop())
            for n in names:
                for d in search:
                    f = os.path.normpath(os.path.join(d, n))
                    if os.path.exists(f):
                        if f not in seen:
                            seen.add(f)
                            todo.append(f)
                        break
                else:
                    raise ism_eal.Error("%s: no %s in %s" % (path, n, search))
        return seen
    return libs


def doc_block(name):
    """The shell commands of the block of DOC marked
    '.. doc-test: skip s390x-guest name=NAME'."""
    text = open(DOC).read().splitlines()
    for i, ln in enumerate(text):
        if re.match(r"^\.\. doc-test: skip s390x-guest name=%s\b" % name, ln):
            break
    else:
        raise ism_eal.Error("%s: no doc-test block %s" % (DOC, name))
    j = next(k for k in range(i + 1, len(text))
             if text[k].startswith(".. code-block::"))
    body = []
    for ln in text[j + 1:]:
        if ln and not ln.startswith("   "):
            break
        body.append(ln[3:])
    return "\n".join(body).strip("\n")


def no_edat(lines):
    """The guest's CPU has no EDAT-1, so no hugepages (plan_dpdk.sh)."""
    return any(ln.startswith("VMTEST-NOEDAT") for ln in lines)


def check(c, lines, counts):
    """The console checks of the docstring (vmlib.Console c)."""
    c.expect(r"^VMTEST-INIT .*kernel=7\.")
    steps = ["functional-nohuge", "block-a", "intr", "fwd"]
    if no_edat(lines):
        # No hugepages on this CPU (plan_dpdk.sh): the guide's block
        # must fail at EAL's hugepage set-up, for that reason only.
        c.expect(r"^VMTEST-RC functional [1-9][0-9]*$")
        c.expect(r"EAL: Cannot get hugepage information")
    else:
        steps.insert(0, "functional")
    for step in steps:
        c.expect(r"^VMTEST-RC %s 0$" % step)
    c.expect(r"^VMTEST-RC block-b [1-9][0-9]*$")
    check_block(c, lines)
    c.expect(r"^VMTEST-RC fwd-b 0$")
    c.expect(r"^VMTEST-DRIVER \S+ ism$")
    # (The steps that run suites print a summary each.)
    c.expect_count(r"^summary: [1-9][0-9]* passed, 0 failed",
                   len([s for s in steps if s in (
                       "functional", "functional-nohuge", "intr")]))
    c.expect_count(r"^\s+\[FAIL\]", 0)
    m = [int(x) for x in re.findall(r"loopback-check ok (\d+) lost 0 "
                                    r"corrupt 0 reordered 0", "\n".join(lines))]
    if not m or max(m) < 10000:
        c.fail("dpdk-ism_fwd checked packets: %s, wanted >= 10000" % m)
    c.expect(r"^VMTEST-END done$")
    check_smc(c, lines)
    for dev in ("ism0", "ism1"):
        v = counts.get(dev)
        if v is None:
            c.fail("QEMU printed no write counts for %s" % dev)
            continue
        if v["data blocks"] == 0 or v["cmd blocks"] == 0:
            c.fail("%s: no store blocks counted: %s" % (dev, v))
        for k in ("data pieces", "cmd pieces", "refused pieces",
                  "refused blocks"):
            if v[k] != 0:
                c.fail("%s: %s %d (every write must be one store block)"
                       % (dev, k, v[k]))


def section(lines, step):
    """The console lines of one step of plan_dpdk.sh."""
    out, inside = [], False
    for ln in lines:
        if ln == "VMTEST-RUN %s" % step:
            inside = True
        elif inside and ln.startswith("VMTEST-RC %s " % step):
            break
        elif inside:
            out.append(ln)
    return out


def check_block(c, lines):
    """-b with B's zPCI address: A probed, B not (block-a); a suite that
    wants B finds no device B (block-b)."""
    a, b = ("%04x:00:00.0" % f[2] for f in FUNCS[:2])
    blk = "\n".join(section(lines, "block-a"))
    if "ISM_BUS: %s: probing with driver ism_pci" % a not in blk:
        c.fail("block-a: %s was not probed" % a)
    if "ISM_BUS: %s:" % b in blk:
        c.fail("block-a: the blocked %s was seen by the bus" % b)
    if 'no ISM devices "%s" and "%s"' % (a, b) not in "\n".join(
            section(lines, "block-b")):
        c.fail("block-b: did not fail for want of %s" % b)


def check_smc(c, lines):
    """SMC-D on the third function: the bytes checked both ways, every
    connected socket in mode smcd with that function's GID."""
    c.expect(r"^VMTEST-RC smc 0$")
    for d in ("c2s", "s2c"):
        c.expect(r"^SMC_TEST %s#0 bytes=\d+ fnv=([0-9a-f]+) expect=\1 "
                 r"bad=0 first_bad=-1 secs=\S+ ok$" % d)
    c.expect(r"^SMC_TEST PASS$")
    socks = [ln for ln in lines if re.match(r"^SMC_DIAG sock \S+:\d+-\S+:"
                                            r"[1-9]", ln)]
    if len(socks) != 2:
        c.fail("%d connected SMC sockets, expected 2" % len(socks))
    gid = "my_gid=0x%016x peer_gid=0x%016x" % (FUNCS[2][0], FUNCS[2][0])
    for ln in socks:
        if " mode=smcd " not in ln or gid not in ln:
            c.fail("not SMC-D on the third function (%s): %s" % (gid, ln))


def write_counts(lines):
    """{device: {what: n}} of QEMU's exit lines (tests/ism_device/qemu)."""
    out = {}
    for ln in lines:
        m = re.match(r"^ism (\S+): writes: (.*)$", ln)
        if m:
            out[m.group(1)] = {k: int(v) for k, v in re.findall(
                r"([a-z]+ [a-z]+) (\d+)", m.group(2))}
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tag", default="rel")
    ap.add_argument("--build", required=True)
    ap.add_argument("--keep", help="copy the console log here")
    a = ap.parse_args()
    qemu, kdir, dpdk = ready(a.tag)
    signal.signal(signal.SIGTERM, lambda *x: sys.exit(1))
    out = s390x_build(os.path.abspath(a.build))
    test = os.path.join(out, "app", "test-ism", "dpdk-test-ism")
    fwd = os.path.join(out, "examples", "ism_fwd", "dpdk-ism_fwd")
    libdir = dpdk["DPDK_LIBDIR"]
    # The libraries themselves (DPDK's pmds-<ABI>/ holds links to them).
    pmds = sorted(os.path.join(libdir, f) for f in os.listdir(libdir)
                  if re.match(r"librte_(net_ring|mempool_ring)\.so\.\d+$", f))
    ism_eal.check(len(pmds) == 2, "net_ring and mempool_ring in %s: %s"
                  % (libdir, pmds))
    rel = open(os.path.join(kdir, "VERSION")).read().strip()
    devices = []
    for i, (gid, fid, uid) in enumerate(FUNCS):
        devices += ["-device", "zpci,uid=%d,fid=%d,target=ism%d"
                    % (uid, fid, i),
                    "-device", "ism,id=ism%d,fabric=%d,gid=0x%x"
                    % (i, FABRIC, gid)]
    procs, result = [], {}
    with tempfile.TemporaryDirectory(prefix="ism-s390x-dpdk.") as tmp:
        smc = os.path.join(tmp, "smc_test")
        subprocess.run([CROSS + "gcc", "-static", "-O2", "-Wall", "-Werror",
                        "-o", smc, os.path.join(HERE, "smc_test.c")],
                       check=True)
        plan = ("FID_A=0x%08x\nFID_B=0x%08x\nFID_C=0x%08x\nGID_A=0x%x\n"
                "GID_B=0x%x\nTEST=%s\nFWD=%s\nSMC=%s\nPMDS=\"%s\"\n"
                "LIBS=%s:%s/lib\nON_IBM_Z() {\n%s\n}\n%s"
                % (FUNCS[0][1], FUNCS[1][1], FUNCS[2][1], FUNCS[0][0],
                   FUNCS[1][0], test, fwd, smc,
                   " ".join("-d " + p for p in pmds), libdir, SYSROOT,
                   doc_block("on-ibm-z"),
                   open(os.path.join(HERE, "plan_dpdk.sh")).read()))
        initrd = vmlib.initramfs(
            tmp, programs=[test, fwd], files=pmds + [
                smc, os.path.join(SYSROOT, "lib", "ld64.so.1"),
                os.path.join(SYSROOT, "lib", "libgcc_s.so.1")],
            plans={"dpdk": plan}, busybox=os.path.join(kdir, "busybox"),
            module_tree=os.path.join(kdir, "modules", "lib", "modules"),
            libraries=libraries_of([libdir, os.path.join(SYSROOT, "lib")]))
        qlog = os.path.join(tmp, "qemu.log")

        def body():
            g = vmlib.Guest("s390x", "dpdk", initrd, devices=devices,
                            timeout=TIMEOUT_S, qemu=qemu,
                            args=["-M", "s390-ccw-virtio", "-cpu", "max",
                                  "-m", "1024", "-smp", "2",
                                  "-nodefaults", "-display", "none",
                                  "-serial", "stdio", "-no-reboot",
                                  "-d", "guest_errors", "-D", qlog],
                            kernel=os.path.join(kdir, "vmlinuz"),
                            append="console=ttysclp0 panic=-1 "
                            "vmtest.kernel=%s" % rel, echo=False)
            procs.append(g.proc)
            result["rc"], result["secs"] = g.finish()
            result["lines"] = g.lines

        try:
            ism_eal.run_all(procs, body)
        except ism_eal.Error as e:
            print("FAIL: %s" % e)
            return 1
        console = vmlib.Console(result["lines"])
        if os.path.exists(qlog):
            for ln in open(qlog):
                if ln.strip():
                    console.fail("QEMU logged a guest error: %s" % ln.rstrip())
    if a.keep:
        with open(a.keep, "w") as f:
            f.write("\n".join(console.lines) + "\n")
    print("qemu exit status %d, the guest ran %.0f s"
          % (result["rc"], result["secs"]))
    counts = write_counts(console.lines)
    check(console, console.lines, counts)
    if console.fails:
        print("---- guest console:")
        print("\n".join(console.lines))
        print("%d check(s) failed" % console.fails)
        return 1
    for ln in console.lines:
        if re.match(r"^(summary|VMTEST-RC|ism \S+: writes|.*loopback-check)",
                    ln):
            print(ln)
    if no_edat(console.lines):
        print("NOT RUN: the steps with hugepages (the guest's CPU has no "
              "EDAT-1, so Linux offers no hugetlbfs; they ran with "
              "--no-huge)")
    print("all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(vmlib.skip_main(main))
