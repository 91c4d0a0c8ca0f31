#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ism authors
"""Run the commands and compile the C snippets of README.md and doc/guides.

    doc_blocks.py --src SRC --build BUILD [--list] [FILE...]

Every code block of the documents must carry a marker saying what the test
does with it, so that a new block cannot escape it. In Markdown the marker
is a comment on the line before the fence, in reStructuredText a comment
anywhere between the previous block and this one:

    <!-- doc-test: KIND [key=value...] -->
    .. doc-test: KIND [key=value...]

KIND is one of:

  run        a shell script (bash -e), from the source root, in a mount
             namespace of its own whose source tree and build/ are
             throw-away overlays (a block may reconfigure or rebuild them)
             and whose /usr/local is one too; tmpfs=DIR,... adds fresh
             tmpfs mounts (a prefix such as /opt)
  terminals  blocks of "# terminal N" parts run side by side after the part
             before the first one; with wait1=REGEX (a line of terminal 1)
             or until1 (terminal 1 exits) the others are then stopped with
             SIGINT; every part must exit 0 (a stopped one: 0 or SIGINT).
             With parts=N the block is terminal 1 and the next N-1 blocks,
             marked "part", are terminals 2..N (a walk-through that gives
             each terminal a block of its own)
  part       a terminal of the terminals block before it
  c          a C translation unit, compiled (-c) as a user of the install
             compiles it: against the build installed into a scratch
             prefix (pkg-config libdpdk-ism), with -Wall -Werror and only
             the flags of the marker's cflags="...", each of which the
             document must name in its text
  c-body     a C fragment, compiled as the body of a function whose
             parameters are the marker's decl="..." (types of the API)
  text       not a command: the reason follows: output (what a program
             prints), syntax (a synopsis with placeholders), file (the
             content of a file)
  skip       not run; the reason follows, one of: hardware (an IBM ISM
             function, IBM Z or a host's vfio), kvm (guests that need KVM),
             docker (a Docker daemon), long (more than a few minutes),
             s390x-guest (run as written, with name=NAME, inside the
             emulated s390x guest of tests/vm/s390x/s390x_dpdk_test.py,
             make test-emul)

Keys: timeout=S (default 60; every process runs under timeout(1)),
rc=N (expected status of run), expect=REGEX (a line of the output).

The commands run as written: in a private mount namespace (unshare) whose
/tmp and EAL runtime directory (/run/dpdk) are fresh tmpfs, so fixed names
like /tmp/fabric and --file-prefix p1 meet nobody else's and leave nothing
behind, with BUILD bind-mounted on SRC/build (the guides say ./build).
Without root, or where unshare is not allowed (a container without
CAP_SYS_ADMIN), the test is skipped (77).
"""

import argparse
import os
import re
import shlex
import signal
import subprocess
import sys
import tempfile
import time

KINDS = ("run", "terminals", "part", "c", "c-body", "text", "skip")
SKIP_REASONS = ("hardware", "kvm", "docker", "long", "s390x-guest")
TEXT_REASONS = ("output", "syntax", "file")
MD_MARK = re.compile(r"^\s*<!--\s*doc-test:\s*(.*?)\s*-->\s*$")
RST_MARK = re.compile(r"^\s*\.\.\s+doc-test:\s*(.*?)\s*$")
TERMINAL = re.compile(r"^\s*#\s*terminal\s+(\d+)")


class Block:
    def __init__(self, path, line, lang, text, marker):
        self.path, self.line, self.lang = path, line, lang
        self.text, self.marker = text, marker
        self.kind, self.opts, self.reason = None, {}, ""
        if marker is not None:
            words = shlex.split(marker)
            self.kind = words[0] if words else ""
            for w in words[1:]:
                if "=" in w:
                    k, v = w.split("=", 1)
                    self.opts[k] = v
                else:
                    self.opts[w] = True
            if self.kind in ("skip", "text"):
                self.reason = words[1] if len(words) > 1 else ""

    def where(self):
        return "%s:%d" % (self.path, self.line)


def parse_md(path, rel):
    blocks, marker, lines = [], None, open(path).read().split("\n")
    i = 0
    while i < len(lines):
        m = MD_MARK.match(lines[i])
        if m:
            marker = m.group(1)
        elif lines[i].startswith("```"):
            lang, start, body = lines[i][3:].strip(), i + 1, []
            i += 1
            while i < len(lines) and not lines[i].startswith("```"):
                body.append(lines[i])
                i += 1
            blocks.append(Block(rel, start, lang, "\n".join(body) + "\n",
                                marker))
            marker = None
        i += 1
    return blocks


def indent(s):
    return len(s) - len(s.lstrip())


def parse_rst(path, rel):
    blocks, marker, lines = [], None, open(path).read().split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        m = RST_MARK.match(line)
        lang = None
        if m:
            marker = m.group(1)
        elif re.match(r"^\s*\.\.\s+code(-block)?::", line):
            lang = line.split("::", 1)[1].strip() or "text"
        elif line.rstrip().endswith("::") and \
                not re.match(r"^\s*\.\.\s", line):
            lang = "literal"
        if lang is None:
            i += 1
            continue
        base = indent(line)
        i += 1
        # Directive options, then the indented body.
        while i < len(lines) and lines[i].strip().startswith(":") and \
                indent(lines[i]) > base:
            i += 1
        body, start = [], i + 1
        while i < len(lines) and (lines[i].strip() == "" or
                                  indent(lines[i]) > base):
            body.append(lines[i])
            i += 1
        while body and body[-1].strip() == "":
            body.pop()
        while body and body[0].strip() == "":
            body.pop(0)
            start += 1
        if not body:
            continue
        cut = min(indent(b) for b in body if b.strip())
        text = "\n".join(b[cut:] for b in body) + "\n"
        blocks.append(Block(rel, start, lang, text, marker))
        marker = None
    return blocks


def join_parts(blocks, bad):
    """A terminals block with parts=N takes the next N-1 blocks as its
    terminals 2..N."""
    for i, b in enumerate(blocks):
        if b.kind != "terminals" or "parts" not in b.opts:
            continue
        n = int(b.opts["parts"])
        parts = blocks[i + 1:i + n]
        if len(parts) != n - 1 or any(p.kind != "part" or p.path != b.path
                                      for p in parts):
            bad.append("%s: parts=%d needs %d blocks marked part after it"
                       % (b.where(), n, n - 1))
            continue
        b.text = "# terminal 1\n" + b.text + "".join(
            "# terminal %d\n%s" % (k + 2, p.text) for k, p in
            enumerate(parts))
        for p in parts:
            p.owner = b
    for b in blocks:
        if b.kind == "part" and getattr(b, "owner", None) is None:
            bad.append("%s: part without a terminals block with parts=N "
                       "before it" % b.where())


def collect(src, files):
    out = []
    for rel in files:
        path = os.path.join(src, rel)
        out += parse_md(path, rel) if rel.endswith(".md") else \
            parse_rst(path, rel)
    return out


def default_files(src):
    files = ["README.md"]
    for root, _, names in sorted(os.walk(os.path.join(src, "doc", "guides"))):
        for n in sorted(names):
            if n.endswith(".rst"):
                files.append(os.path.relpath(os.path.join(root, n), src))
    return files


# ------------------------------------------------------------- running

class Ctx:
    def __init__(self, args):
        self.src, self.build, self.args = args.src, args.build, args
        self.cleanup, self.pc_cflags = [], []


def spawn(ctx, script, timeout, out, stdin=subprocess.DEVNULL):
    return subprocess.Popen(
        ["timeout", "-k", "5", str(timeout), "bash", "-e", "-c", script],
        cwd=ctx.src, stdout=out, stderr=subprocess.STDOUT,
        stdin=stdin, start_new_session=True)


def output_file():
    return tempfile.NamedTemporaryFile("w+", prefix="doc-block.",
                                       delete=True)


def expect_line(b, text):
    rx = b.opts.get("expect")
    if isinstance(rx, str) and not re.search(rx, text, re.M):
        return "no line matches /%s/" % rx
    return None


def overlay_script(ctx, b, scratch):
    """Mounts, in the block's own namespace, that make the clone and
    /usr/local throw-away: what the block writes there goes to scratch."""
    cmds = []
    n = 0
    # build/ over the tree's overlay, whose lower layer does not show the
    # build directory mounted there.
    for lower, on in ((ctx.src, ctx.src),
                      (ctx.build, os.path.join(ctx.src, "build")),
                      ("/usr/local", "/usr/local")):
        up = os.path.join(scratch, "o%d" % n)
        n += 1
        cmds.append("mkdir -p %s/u %s/w && mount -t overlay overlay -o "
                    "lowerdir=%s,upperdir=%s/u,workdir=%s/w %s" % (
                        up, up, shlex.quote(lower), up, up,
                        shlex.quote(on)))
    tm = b.opts.get("tmpfs")
    # Mode 0755, as a prefix such as /opt is: a tmpfs is 1777 by default,
    # and EAL refuses -d plugins below a world-writable directory.
    for d in (tm.split(",") if isinstance(tm, str) else []):
        cmds.append("mkdir -p %s && mount -t tmpfs -o mode=0755 none %s"
                    % (shlex.quote(d), shlex.quote(d)))
    return " && ".join(cmds)


def run_block(ctx, b):
    timeout = int(b.opts.get("timeout", 60))
    with output_file() as out, \
            tempfile.TemporaryDirectory(prefix="doc-ov.",
                                        dir="/dev/shm") as scratch:
        script = "%s && cd %s && exec bash -e -c %s" % (
            overlay_script(ctx, b, scratch), shlex.quote(ctx.src),
            shlex.quote(b.text))
        p = subprocess.Popen(
            ["timeout", "-k", "5", str(timeout), "unshare", "--mount",
             "--propagation", "private", "bash", "-e", "-c", script],
            cwd=ctx.src, stdout=out, stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL, start_new_session=True)
        rc = p.wait()
        out.seek(0)
        text = out.read()
    want = int(b.opts.get("rc", 0))
    if rc == 124:
        return "timed out after %d s" % timeout, text
    if rc != want:
        return "exit status %d, expected %d" % (rc, want), text
    return expect_line(b, text), text


def split_terminals(text):
    pre, parts, cur = [], {}, None
    for line in text.split("\n"):
        m = TERMINAL.match(line)
        if m:
            cur = int(m.group(1))
            parts[cur] = []
            continue
        (parts[cur] if cur is not None else pre).append(line)
    # A command continued with "\" stays in its part.
    return "\n".join(pre) + "\n", {k: "\n".join(v) + "\n"
                                   for k, v in sorted(parts.items())}


def group_but_leader(pgid):
    """The processes of process group pgid but its leader."""
    pids = []
    for d in os.listdir("/proc"):
        if not d.isdigit() or int(d) == pgid:
            continue
        try:
            with open("/proc/%s/stat" % d) as f:
                stat = f.read()
        except OSError:
            continue
        # After the command's ")": state, ppid, pgrp.
        if int(stat.rsplit(")", 1)[1].split()[2]) == pgid:
            pids.append(int(d))
    return pids


def stop(p, grace):
    """SIGINT to the part's processes, as a terminal's Ctrl-C; its status
    (None: hung for grace seconds). Not to the group's leader, timeout(1):
    a signal to it starts its -k timer, after which it kills the group
    (itself too: status -9) however the program was about to end, and a
    program that takes more than those 5 s to end on a loaded host failed
    the block."""
    if p.poll() is None:
        for pid in group_but_leader(p.pid):
            try:
                os.kill(pid, signal.SIGINT)
            except ProcessLookupError:
                pass
    try:
        return p.wait(grace)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        p.wait()
        return None


def run_terminals(ctx, b):
    timeout = int(b.opts.get("timeout", 60))
    pre, parts = split_terminals(b.text)
    if not parts:
        return "no '# terminal N' part", ""
    if pre.strip():
        p = spawn(ctx, pre, timeout, subprocess.PIPE)
        o, _ = p.communicate()
        if p.returncode != 0:
            return "preamble: exit status %d" % p.returncode, o.decode()
    # Variables the preamble sets (NAME=, export NAME=) are the
    # terminals' too (a user types them in each terminal).
    assign = "".join(line + "\n" for line in pre.split("\n")
                     if re.match(r"^(export\s+)?[A-Za-z_]\w*=", line))
    outs, procs = {}, {}
    try:
        for n, script in parts.items():
            outs[n] = output_file()
            # A terminal's input stays open, as a terminal's does (a
            # program waiting for Enter keeps running).
            procs[n] = spawn(ctx, assign + script, timeout, outs[n],
                             stdin=subprocess.PIPE)
        deadline = time.monotonic() + timeout + 10
        first = min(parts)
        wait1 = b.opts.get("wait1")
        stopped = set()
        err = None
        while time.monotonic() < deadline:
            if isinstance(wait1, str):
                outs[first].flush()
                with open(outs[first].name) as f:
                    if re.search(wait1, f.read(), re.M):
                        break
                if procs[first].poll() is not None:
                    err = "terminal %d exited before /%s/" % (first, wait1)
                    break
            elif "until1" in b.opts:
                if procs[first].poll() is not None:
                    break
            elif all(p.poll() is not None for p in procs.values()):
                break
            time.sleep(0.2)
        else:
            err = "no end within %d s" % timeout
        if "until1" in b.opts:
            stopped = set(parts) - {first}
        elif isinstance(wait1, str):
            stopped = set(parts)
        # A stopped part has the block's time to end (the deadline of
        # timeout(1) is the bound): its status, not a race with a grace
        # period, is what the block is judged by.
        rcs = {n: (stop(p, timeout + 10) if n in stopped
                   else p.wait(timeout + 10))
               for n, p in procs.items()}
        text = ""
        for n in parts:
            outs[n].seek(0)
            text += "--- terminal %d (status %s)\n%s" % (n, rcs[n],
                                                         outs[n].read())
        for n, rc in rcs.items():
            ok = rc == 0 or (n in stopped and rc in (-signal.SIGINT, 130))
            if not ok and err is None:
                err = "terminal %d: exit status %s" % (n, rc)
        return err or expect_line(b, text), text
    finally:
        for p in procs.values():
            if p.poll() is None:
                os.killpg(p.pid, signal.SIGKILL)
                p.wait()
            if p.stdin:
                p.stdin.close()
        for o in outs.values():
            o.close()


def install_build(ctx):
    """The build installed into a scratch directory (DESTDIR), and the
    compile flags of its pkg-config file."""
    dest = tempfile.mkdtemp(prefix="doc-install.", dir="/dev/shm")
    ctx.cleanup.append(dest)
    r = subprocess.run(["meson", "install", "-C", ctx.build, "--no-rebuild",
                        "--quiet", "--destdir", dest],
                       capture_output=True, text=True)
    if r.returncode != 0:
        raise SystemExit("meson install --destdir failed:\n" + r.stdout +
                         r.stderr)
    pcs = [os.path.join(root, "libdpdk-ism.pc")
           for root, _, names in os.walk(dest) if "libdpdk-ism.pc" in names]
    if not pcs:
        raise SystemExit("no libdpdk-ism.pc in the install")
    # The pkg-config files are relocatable (prefix from ${pcfiledir}).
    pcdir = os.path.dirname(pcs[0])
    env = dict(os.environ, PKG_CONFIG_PATH=pcdir + ":" +
               os.environ.get("PKG_CONFIG_PATH", ""))
    ctx.pc_cflags = subprocess.run(
        ["pkg-config", "--cflags", "libdpdk-ism"], check=True,
        capture_output=True, text=True, env=env).stdout.split()
    if not any(f.startswith("-I" + dest) for f in ctx.pc_cflags):
        raise SystemExit("pkg-config does not point into the install: %s"
                         % " ".join(ctx.pc_cflags))


def prose(path):
    """The document without its code blocks' markers."""
    return "\n".join(line for line in open(path).read().split("\n")
                     if not (MD_MARK.match(line) or RST_MARK.match(line)))


def c_flags(ctx, b):
    """Only the flags the document names, as a reader would pass them."""
    flags = b.opts.get("cflags", "")
    flags = flags.split() if isinstance(flags, str) else []
    text = prose(os.path.join(ctx.src, b.path))
    missing = [f for f in flags if f not in text]
    if missing:
        return None, "the document does not name %s" % " ".join(missing)
    sdk = []
    if "sdk" in b.opts:
        # The driver-facing headers, which an install has only with
        # -Denable_driver_sdk=true, and DPDK's driver-SDK headers.
        sdk = ["-I" + os.path.join(ctx.src, d) for d in
               ("lib/ism", "drivers/bus/ism", "config")] + \
            ["-I" + os.path.join(ctx.args.sdk, "include")]
    return ["-Wall", "-Werror"] + flags + ctx.pc_cflags + sdk, None


def compile_block(ctx, b):
    text = b.text
    if b.kind == "c-body":
        incs = b.opts.get("include", "rte_ism.h").split(",")
        text = "".join("#include <%s>\n" % h for h in incs) + \
            b.opts.get("prelude", "").replace("\\n", "\n") + "\n" + \
            "void doc_block(%s);\nvoid doc_block(%s)\n{\n%s}\n" % (
                b.opts.get("decl", "void"), b.opts.get("decl", "void"),
                text)
    with tempfile.TemporaryDirectory(prefix="doc-c.") as d:
        c = os.path.join(d, "block.c")
        with open(c, "w") as f:
            f.write(text)
        # A fragment's results may go unused.
        extra = ["-Wno-unused-variable"] if b.kind == "c-body" else []
        flags, err = c_flags(ctx, b)
        if err:
            return err, text
        r = subprocess.run(["timeout", "60", "cc", "-c", "-o",
                            os.path.join(d, "block.o"), c] + flags +
                           extra,
                           capture_output=True, text=True)
    if r.returncode != 0:
        return "does not compile", text + "\n" + r.stdout + r.stderr
    return None, ""


def under(path, d):
    return path == d or path.startswith(d.rstrip("/") + "/")


def in_namespace(ctx):
    """Fresh /tmp and EAL runtime directory; BUILD on SRC/build."""
    # /run whole: EAL's runtime directories and the guides' /var/run/...
    # rendezvous directories.
    run_dir = os.path.dirname(os.path.realpath("/var/run/dpdk"))
    # A clone (or build) below /tmp or /run stays visible: held aside,
    # then moved back onto its path in the fresh tmpfs.
    held = []
    for p in sorted({ctx.src, ctx.build}):
        if any(under(p, d) for d in ("/tmp", run_dir)) and \
                not any(under(p, h) for h, _ in held):
            hold = tempfile.mkdtemp(prefix="doc-hold.", dir="/dev/shm")
            ctx.cleanup.append(hold)
            subprocess.run(["mount", "--bind", p, hold], check=True)
            held.append((p, hold))
    for d in ("/tmp", run_dir):
        subprocess.run(["mount", "-t", "tmpfs", "-o", "mode=1777", "none",
                        d], check=True)
    for p, hold in held:
        os.makedirs(p, exist_ok=True)
        subprocess.run(["mount", "--move", hold, p], check=True)
    want = os.path.join(ctx.src, "build")
    if os.path.realpath(want) != os.path.realpath(ctx.build):
        if not os.path.isdir(want):
            raise SystemExit("%s: no directory to mount %s on"
                             % (want, ctx.build))
        subprocess.run(["mount", "--bind", ctx.build, want], check=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--src", required=True)
    ap.add_argument("--build", required=True)
    ap.add_argument("--sdk", default=None)
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--only", default=None,
                    help="run only blocks whose FILE:LINE contains this")
    ap.add_argument("files", nargs="*")
    args = ap.parse_args()
    args.src = os.path.realpath(args.src)
    args.build = os.path.realpath(args.build)
    args.sdk = args.sdk or os.path.join(args.src, ".deps", "dpdk-sdk")
    blocks = collect(args.src, args.files or default_files(args.src))

    bad = []
    join_parts(blocks, bad)
    for b in blocks:
        if b.kind is None:
            bad.append("%s: code block without a doc-test marker" % b.where())
        elif b.kind not in KINDS:
            bad.append("%s: unknown doc-test kind %r" % (b.where(), b.kind))
        elif b.kind == "skip" and b.reason not in SKIP_REASONS:
            bad.append("%s: skip needs a reason of %s (what is not a "
                       "command is text %s; what runs here in minutes is "
                       "run or terminals)" % (b.where(), SKIP_REASONS,
                                               "|".join(TEXT_REASONS)))
        elif b.kind == "text" and b.reason not in TEXT_REASONS:
            bad.append("%s: text needs a reason of %s" % (b.where(),
                                                        TEXT_REASONS))
    if args.list:
        for b in blocks:
            print("%-45s %-9s %s" % (b.where(), b.kind, b.marker or ""))
    if bad:
        print("\n".join(bad))
        return 1
    if args.list:
        return 0

    if os.environ.get("DOC_BLOCKS_NS") != "1":
        if os.geteuid() != 0 or subprocess.run(
                ["unshare", "--mount", "true"],
                stderr=subprocess.DEVNULL).returncode != 0:
            print("SKIP: the blocks run in a private mount namespace, "
                  "which needs root (CAP_SYS_ADMIN)")
            return 77
        env = dict(os.environ, DOC_BLOCKS_NS="1")
        return subprocess.run(["unshare", "--mount", "--propagation",
                               "private", sys.executable] + sys.argv,
                              env=env).returncode

    ctx = Ctx(args)
    try:
        in_namespace(ctx)
        install_build(ctx)
        return run_all(ctx, args, blocks)
    finally:
        for d in ctx.cleanup:
            subprocess.run(["umount", "-l", d], stderr=subprocess.DEVNULL)
            subprocess.run(["rm", "-rf", "--one-file-system", d])


def run_all(ctx, args, blocks):
    fails, counts = 0, {}
    for b in blocks:
        if args.only and args.only not in b.where():
            continue
        counts[b.kind] = counts.get(b.kind, 0) + 1
        if b.kind in ("skip", "text", "part"):
            continue
        t0 = time.monotonic()
        if b.kind == "run":
            err, text = run_block(ctx, b)
        elif b.kind == "terminals":
            err, text = run_terminals(ctx, b)
        else:
            err, text = compile_block(ctx, b)
        print("%s %s %s (%.1f s)" % ("FAIL" if err else "ok  ", b.where(),
                                     b.kind, time.monotonic() - t0),
              flush=True)
        if err:
            fails += 1
            print("  %s\n  block:\n%s  output:\n%s" % (
                err, "".join("    | " + line + "\n"
                             for line in b.text.splitlines()),
                "".join("    > " + line + "\n"
                        for line in text.splitlines()[-40:])), flush=True)
    print("blocks: %s; %d failed" % (
        ", ".join("%s %d" % kv for kv in sorted(counts.items())), fails))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
