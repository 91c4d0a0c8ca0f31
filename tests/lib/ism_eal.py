#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ism authors
"""Running EAL processes in tests and benchmarks (python3 standard library).

The one place that knows how this project starts a DPDK process for a test
and cleans up after it:

- every process runs under a deadline that holds even if the harness dies
  (timeout(1)), in a session of its own so that the wrapper and the process
  are signalled together (killpg), and is cleaned up by pid: never by name;
- every process gets its own EAL --file-prefix (file_prefix(): the build
  tag, the test, the harness pid and a counter), and EAL's runtime
  directory of that prefix is removed once the process is gone, also when
  it was killed (EAL 22.11 never removes it; see runtime_dir());
- output is collected line by line with the CLOCK_MONOTONIC time each line
  arrived, and a harness waits for a line (wait_for) under a deadline that
  only stops a hang;
- a process can be stopped (SIGSTOP), continued or killed (SIGKILL) by the
  pid of the EAL process itself, not of its wrapper, and driven through
  its stdin (send(): testpmd's interactive mode);
- run_all(): a test body over a set of processes, every one of them
  reaped whatever happens, the output of all printed on failure;
- plugin_load(): the -d options (and environment) that load the build's
  plugins from any clone location, /tmp included;
- asan_preload(): what an uninstrumented program (Debian's dpdk-testpmd)
  needs to load plugins built with ASan/UBSan;
- noise_probe(): how much of the time busy CPUs really ran (benchmarks);
- a program built for another CPU (a cross build's, e.g. s390x) runs under
  the emulator that ISM_EXE_WRAPPER names (tests/s390x sets it), with the
  line buffering of ISM_EXE_LINEBUF (a preload library of that CPU) in
  place of stdbuf(1), whose library is the build machine's.

Harnesses import it (tests and devtools add this directory to sys.path).
Meson runs single programs through its command line:

    ism_eal.py run --tag TAG --name NAME [--timeout S] [--quiet]
                   [--leaves FILE] -- PROGRAM [EAL options] [-- application options]

runs PROGRAM with "--file-prefix ism-NAME-TAG-PID-N" added first, every
"@TMPDIR@" in the arguments replaced by a fresh private directory (which
must be empty when PROGRAM exits, but for the files named with --leaves:
an ivshmem region file outlives its members, as QEMU's does), then removes the runtime directories of
that prefix (and of PREFIX-*, the prefixes a program derives from its own,
as dpdk-test-ism-perf does per case). Its exit status is PROGRAM's.
"""

import argparse
import itertools
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

# Seconds timeout(1) waits after the deadline signal before SIGKILL.
KILL_AFTER_S = 5
# After the process exited, its output ends once every process that shares
# its stdout has exited too; only a hang takes this long.
READER_TIMEOUT_S = 30

_counter = itertools.count()


def _elf_machine(path):
    """ELF e_machine of a file, or None (not an ELF file)."""
    try:
        with open(path, "rb") as f:
            h = f.read(20)
    except OSError:
        return None
    if len(h) < 20 or h[:4] != b"\x7fELF":
        return None
    return int.from_bytes(h[18:20], "big" if h[5] == 2 else "little")


def foreign_program(path):
    """Whether path is a program of another CPU than this machine's (run
    through ISM_EXE_WRAPPER)."""
    exe = shutil.which(str(path)) or str(path)
    m = _elf_machine(exe)
    return m is not None and m != _elf_machine(sys.executable)


def wrap_command(cmd, line_buffered=False):
    """cmd as it runs here: a foreign program under ISM_EXE_WRAPPER (an
    emulator's command line, e.g. "qemu-s390x-static -L /usr/s390x-linux-gnu";
    QEMU's user mode runs the program in its own process, so the pid is the
    program's), else as it is; line_buffered: under stdbuf -oL, or for a
    foreign program with ISM_EXE_LINEBUF preloaded into it."""
    cmd = [str(c) for c in cmd]
    wrapper = os.environ.get("ISM_EXE_WRAPPER", "").split()
    if wrapper and foreign_program(cmd[0]):
        env = []
        linebuf = os.environ.get("ISM_EXE_LINEBUF")
        if line_buffered and linebuf:
            env = ["-E", "LD_PRELOAD=" + linebuf]
        return wrapper + env + cmd
    return (["stdbuf", "-oL"] if line_buffered else []) + cmd


class Error(Exception):
    """A process did not do what the harness waited for, or a check of a
    harness failed."""


def check(cond, msg):
    """Raise Error(msg) unless cond."""
    if not cond:
        raise Error(msg)


def now_ns():
    """CLOCK_MONOTONIC in ns: the clock of the line times and of the
    mono_ns values the programs print."""
    return time.monotonic_ns()


# ------------------------------------------------------------ runtime dirs

def runtime_base():
    """Where EAL 22.11 puts the runtime directories of every prefix:
    /var/run/dpdk for root, else $XDG_RUNTIME_DIR (or /tmp)/dpdk
    (eal_create_runtime_dir() in lib/eal/linux/eal.c)."""
    if os.geteuid() == 0:
        base = "/var/run"
    else:
        base = os.environ.get("XDG_RUNTIME_DIR", "/tmp")
    return os.path.join(base, "dpdk")


def runtime_dir(prefix):
    """EAL's runtime directory of --file-prefix prefix. With --no-shconf
    it holds only the telemetry socket while the process runs, and stays
    behind empty; without --no-shconf the config, the fbarray files and
    the multi-process socket stay too. A killed process leaves all of it."""
    return os.path.join(runtime_base(), prefix)


def remove_runtime_dirs(prefix, derived=True):
    """Remove the runtime directory of prefix and, if derived, those of
    PREFIX-* (prefixes a program derives from its own). Only call this
    once every process using them is gone."""
    base = runtime_base()
    try:
        names = os.listdir(base)
    except OSError:
        return
    for n in names:
        if n == prefix or (derived and n.startswith(prefix + "-")):
            shutil.rmtree(os.path.join(base, n), ignore_errors=True)


def file_prefix(tag, *parts):
    """A --file-prefix unique to this run: ism-PARTS-TAG-PID-N. tag keeps
    the builds apart (rel, asan), parts say which test, the pid and the
    counter which run and which process."""
    words = ["ism"] + [str(p) for p in parts] + [str(tag), str(os.getpid()),
                                                 str(next(_counter))]
    return re.sub(r"[^A-Za-z0-9_.-]", "_", "-".join(words))


def eal_args(lcores, prefix, mem_mb=512, vdevs=(), shconf=False,
             telemetry=True, extra=()):
    """The EAL options of a test process: no hugepages, no PCI scan, no
    shared configuration (nothing of it to leave behind)."""
    args = ["-l", str(lcores), "--no-huge", "-m", str(mem_mb), "--no-pci"]
    if not shconf:
        args.append("--no-shconf")
    if not telemetry:
        args.append("--no-telemetry")
    args += ["--file-prefix", prefix]
    for v in vdevs:
        args += ["--vdev", v]
    return args + list(extra)


def pids_with(text):
    """Pids of the processes whose command line contains text."""
    pids = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open("/proc/%s/cmdline" % pid, "rb") as f:
                if text.encode() in f.read():
                    pids.append(int(pid))
        except OSError:
            pass
    return pids


def _children(pid):
    """Pids whose parent is pid (from /proc/*/stat)."""
    out = []
    for p in os.listdir("/proc"):
        if not p.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % p) as f:
                stat = f.read()
        except OSError:
            continue
        # "pid (comm) state ppid ...": comm may hold spaces and ')'.
        fields = stat[stat.rfind(")") + 2:].split()
        if len(fields) > 1 and int(fields[1]) == pid:
            out.append(int(p))
    return out


# ---------------------------------------------------------------- processes

class Process:
    """One process started by a harness.

    cmd runs under timeout(1): deadline_signal after deadline seconds,
    SIGKILL KILL_AFTER_S later. prefix, if given, is the --file-prefix the
    command uses: its runtime directories are removed when the process is
    reaped. env adds variables, unset removes some (e.g. a fake sysfs root
    the harness's own environment has). With stdin=True the process reads
    a pipe the harness closes with close_stdin() (a peer that holds until
    released). echo prints every line as "[name] line" when it arrives
    ("plain": as it is). line_buffered runs the command under stdbuf -oL:
    for programs that print to a pipe through stdio without flushing
    (dpdk-testpmd, dpdk-l2fwd), whose lines a harness waits for.

    lines[i] arrived at times[i] (now_ns()); eof is set once the output
    ended."""

    def __init__(self, cmd, name, deadline, prefix=None, env=None, unset=(),
                 stdin=False, echo=False, deadline_signal=signal.SIGKILL,
                 cwd=None, line_buffered=False):
        self.name = name
        self.prefix = prefix
        self.echo = echo
        self.lines = []
        self.times = []
        self.eof = False
        self.reaped = False
        self._pid = None
        self._cv = threading.Condition()
        penv = dict(os.environ)
        for k in unset:
            penv.pop(k, None)
        penv.update(env or {})
        wrapped = ["timeout", "-k", str(KILL_AFTER_S), "-s",
                   signal.Signals(deadline_signal).name[3:],
                   str(deadline)] + wrap_command(cmd, line_buffered)
        self.cmd = wrapped
        self.proc = subprocess.Popen(
            wrapped, stdin=subprocess.PIPE if stdin else subprocess.DEVNULL,
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
            errors="replace", bufsize=1, start_new_session=True, env=penv,
            cwd=cwd)
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self):
        for line in self.proc.stdout:
            line = line.rstrip("\n")
            t = now_ns()
            if self.echo == "plain":
                print(line, flush=True)
            elif self.echo:
                print("[%s] %s" % (self.name, line), flush=True)
            with self._cv:
                self.lines.append(line)
                self.times.append(t)
                self._cv.notify_all()
        with self._cv:
            self.eof = True
            self._cv.notify_all()

    # Output.

    def wait_for(self, pattern, timeout=60, start=0, pred=None):
        """Index of the first line from start that matches the regular
        expression pattern (re.search) and pred(line), if given. Raises
        Error at the deadline or once the output ended without one."""
        rx = re.compile(pattern)
        deadline = time.monotonic() + timeout
        i = start
        with self._cv:
            while True:
                while i < len(self.lines):
                    line = self.lines[i]
                    if rx.search(line) and (pred is None or pred(line)):
                        return i
                    i += 1
                left = deadline - time.monotonic()
                if self.eof or left <= 0:
                    raise Error("%s: no line matching %r (%s)" %
                                (self.name, pattern, "its output ended, "
                                 "exit status %s" % self.proc.poll()
                                 if self.eof else "still running"))
                self._cv.wait(left)

    def line(self, i):
        with self._cv:
            return self.lines[i]

    def stamp(self, i):
        """now_ns() when line i arrived."""
        with self._cv:
            return self.times[i]

    def count(self):
        with self._cv:
            return len(self.lines)

    def grep(self, pattern):
        rx = re.compile(pattern)
        with self._cv:
            return [ln for ln in self.lines if rx.search(ln)]

    def dump(self):
        with self._cv:
            for ln in self.lines:
                print("  %s| %s" % (self.name, ln))

    # Signals.

    @property
    def pid(self):
        """The pid of the command itself (timeout(1)'s child)."""
        end = time.monotonic() + 10
        while self._pid is None:
            kids = _children(self.proc.pid)
            if kids:
                self._pid = kids[0]
            elif self.proc.poll() is not None or time.monotonic() > end:
                raise Error("%s: the process did not start" % self.name)
            else:
                time.sleep(0.001)
        return self._pid

    def signal(self, sig):
        """Send sig to the command itself (not to its wrapper), if it
        still runs."""
        if self.proc.poll() is not None:
            return
        try:
            os.kill(self.pid, sig)
        except (ProcessLookupError, Error):
            pass

    def kill(self):
        """SIGKILL the command; returns now_ns() right after."""
        self.signal(signal.SIGKILL)
        return now_ns()

    def stop(self):
        self.signal(signal.SIGSTOP)

    def cont(self):
        self.signal(signal.SIGCONT)

    def signal_group(self, sig):
        """sig to the wrapper and the command (its process group)."""
        if self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, sig)
            except ProcessLookupError:
                pass

    def interrupt(self):
        """SIGINT: the way to ask a DPDK application to finish."""
        self.signal_group(signal.SIGINT)

    def write_stdin(self, line):
        """One line to the command's stdin (started with stdin=True)."""
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def send(self, line):
        """write_stdin(line); returns the line count before it, the start
        from which to wait_for() the answer."""
        mark = self.count()
        self.write_stdin(line)
        return mark

    def close_stdin(self):
        if self.proc.stdin is not None and not self.proc.stdin.closed:
            self.proc.stdin.close()

    # Ends.

    def alive(self):
        """Whether the wrapper (and so the command) still runs."""
        return self.proc.poll() is None

    def wait(self, timeout):
        """Exit status (timeout(1)'s: 124 when the deadline hit). If it
        does not exit within timeout s: kill, clean up, raise Error."""
        try:
            rc = self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.cleanup()
            raise Error("%s did not exit within %s s" % (self.name, timeout))
        self._reap()
        return rc

    def _reap(self):
        """After the wrapper exited: runtime directories, end of output."""
        if self.reaped:
            return
        self.close_stdin()
        if self.prefix is not None:
            remove_runtime_dirs(self.prefix)
        self._reader.join(READER_TIMEOUT_S)
        if self._reader.is_alive():
            raise Error("%s: its output did not end" % self.name)
        self.reaped = True

    def cleanup(self):
        """SIGKILL the wrapper, the command and whatever else is left in
        their process group, reap them and remove the runtime directories.
        Never raises."""
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.close_stdin()
        self.proc.wait()
        try:
            self._reap()
        except Error:
            pass


def run(cmd, name, deadline, **kw):
    """Run cmd to its end (Process arguments); returns the Process, its
    exit status in .proc.returncode and its output in .lines."""
    p = Process(cmd, name, deadline, **kw)
    try:
        p.wait(deadline + KILL_AFTER_S + 5)
    finally:
        p.cleanup()
    return p


def run_all(procs, body, interrupt=False, grace=15):
    """Run body(); whatever happens, then end every process of procs (a
    list body may append to): with interrupt, SIGINT first and up to
    grace s to exit (an application that writes its files on exit), then
    SIGKILL what is left, reap, remove the runtime directories. If body
    raised, print every process' output before the exception goes on."""
    failed = True
    try:
        body()
        failed = False
    finally:
        if interrupt:
            for p in procs:
                p.interrupt()
            for p in procs:
                try:
                    p.wait(grace)
                except Error:
                    pass
        for p in procs:
            p.cleanup()
        if failed:
            for p in procs:
                p.dump()


def world_writable_ancestor(path):
    """The first directory from path up to / that anyone may write to
    (/tmp, /var/tmp, ...), or None."""
    d = os.path.realpath(path)
    while True:
        if os.path.isdir(d) and os.stat(d).st_mode & 0o002:
            return d
        if d == "/":
            return None
        d = os.path.dirname(d)


def plugin_load(paths):
    """EAL options and environment that load the plugins at paths, from
    wherever the tree is: ([-d PATH ...], {}) where EAL accepts the path,
    else ([-d NAME ...], {"LD_LIBRARY_PATH": their directories}).

    EAL refuses a -d path below a world-writable directory ("world-writable
    and insecure": verify_perms() of lib/eal/common/eal_common_options.c),
    so a clone under /tmp or /var/tmp cannot pass its build's plugins by
    path. A -d argument that is not a path of an existing file is handed to
    dlopen() as it is (eal_dlopen(), same file), and dlopen() looks a bare
    name up in LD_LIBRARY_PATH: the same files, loaded without the check
    that only guards paths."""
    if not any(world_writable_ancestor(p) for p in paths):
        return [a for p in paths for a in ("-d", p)], {}
    dirs = []
    for p in paths:
        d = os.path.dirname(os.path.realpath(p))
        if d not in dirs:
            dirs.append(d)
    old = os.environ.get("LD_LIBRARY_PATH")
    env = {"LD_LIBRARY_PATH": ":".join(dirs + ([old] if old else []))}
    return [a for p in paths for a in ("-d", os.path.basename(p))], env


def asan_preload():
    """LD_PRELOAD value for an uninstrumented program (Debian's
    dpdk-testpmd) that loads plugins built with ASan/UBSan: the sanitizer
    runtimes must be loaded first."""
    libs = []
    for name in ("libasan.so", "libubsan.so"):
        path = subprocess.run(["cc", "-print-file-name=" + name],
                              stdout=subprocess.PIPE, text=True,
                              check=True).stdout
        libs.append(os.path.realpath(path.strip()))
    return " ".join(libs)


# ------------------------------------------------------------------ noise

def noise_probe(perf_bin, cpus=(0, 1), ms=1000, tag="bench"):
    """Share of ms milliseconds (percent) that len(cpus) spinning lcores
    on cpus all ran, the lowest of them: the noise case of
    dpdk-test-ism-perf (perf_noise.c). On a VM whose vCPUs run less than
    ~97 % of the time, cross-core figures are not meaningful."""
    with tempfile.TemporaryDirectory(prefix="ism-noise.") as tmp:
        ini = os.path.join(tmp, "noise.ini")
        csv_path = os.path.join(tmp, "noise.csv")
        with open(ini, "w") as f:
            f.write("[noise]\ntype = noise\nbusy_lcores = %d\nms = %d\n"
                    "reps = 1\n" % (len(cpus), ms))
        prefix = file_prefix(tag, "noise")
        p = run([perf_bin] + eal_args(",".join(str(c) for c in cpus),
                                      prefix, mem_mb=64, telemetry=False) +
                ["--log-level=lib.eal:warning", "--", "--config", ini,
                 "--csv", csv_path], "noise", 60 + ms // 1000,
                prefix=prefix)
        if p.proc.returncode != 0:
            p.dump()
            raise Error("noise probe: exit status %d" % p.proc.returncode)
        with open(csv_path) as f:
            for row in f:
                cells = row.strip().split(",")
                if len(cells) > 8 and cells[5] == "ran_min":
                    return float(cells[8])
    raise Error("noise probe: no ran_min figure")


# ---------------------------------------------------------- command line

class _Stopped(Exception):
    """Raised by run's SIGTERM/SIGINT handler to unwind to its clean-up."""


def _cli_run(a):
    prefix = file_prefix(a.tag, a.name)
    tmp = None
    args = []
    for arg in a.command[1:]:
        if "@TMPDIR@" in arg:
            if tmp is None:
                tmp = tempfile.mkdtemp(prefix="ism-%s." % a.name)
            arg = arg.replace("@TMPDIR@", tmp)
        args.append(arg)
    cmd = [a.command[0], "--file-prefix", prefix] + args
    if not a.quiet:
        print("+ " + " ".join(cmd), flush=True)
    # SIGTERM or SIGINT (meson's timeout, timeout(1), ^C) only unwinds:
    # the clean-up runs outside the handler, with both ignored, because
    # the handler may interrupt the very code it would call (Popen.wait()
    # holding its non-reentrant waitpid lock: a cleanup there waits for
    # ever in a futex).
    stopped = []

    def stop(signum, _frame):
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        stopped.append(signum)
        raise _Stopped()

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    p = None
    try:
        p = Process(cmd, a.name, a.timeout, prefix=prefix, echo="plain",
                    deadline_signal=signal.SIGTERM)
        rc = p.wait(a.timeout + KILL_AFTER_S + 5)
    except Error as e:
        print("FAIL: %s" % e, flush=True)
        rc = 1
    except _Stopped:
        rc = 1
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        if p is not None:
            p.cleanup()
        else:
            remove_runtime_dirs(prefix)
    if stopped:
        if tmp is not None:
            shutil.rmtree(tmp, ignore_errors=True)
        return 128 + stopped[0]
    if rc == 124:
        print("FAIL: %s hit its %d s deadline" % (a.name, a.timeout))
        rc = 1
    if tmp is not None:
        left = [f for f in os.listdir(tmp) if f not in a.leaves]
        if left:
            print("FAIL: left in %s: %s" % (tmp, " ".join(sorted(left))))
            rc = rc or 1
        shutil.rmtree(tmp, ignore_errors=True)
    return rc


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run", help="run one EAL program (see the module's "
                       "help)")
    r.add_argument("--tag", required=True, help="build tag (rel, asan)")
    r.add_argument("--name", required=True, help="test name")
    r.add_argument("--timeout", type=int, default=600,
                   help="deadline in seconds (SIGTERM, then SIGKILL)")
    r.add_argument("--quiet", action="store_true",
                   help="do not print the command line first")
    r.add_argument("--leaves", action="append", default=[],
                   help="a file PROGRAM may leave in @TMPDIR@ (repeat)")
    r.add_argument("command", nargs=argparse.REMAINDER,
                   help="-- PROGRAM ARGS...")
    a = ap.parse_args()
    if a.command and a.command[0] == "--":
        a.command = a.command[1:]
    if not a.command:
        ap.error("no program to run")
    return _cli_run(a)


if __name__ == "__main__":
    sys.exit(main())
