#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ism authors
"""No blocking system call on a file a peer shares (python3 standard
library only).

    check-wake-io.py DIR...       check every .c and .h file under DIR
    check-wake-io.py --selftest   the checks on samples that must pass or
                                  fail

A peer that holds a file of ours (an fd passed with SCM_RIGHTS shares the
open file, hence its O_NONBLOCK flag) can make a call on it that depends
on that flag sleep for good; a peer that can read a file can take what we
write there. So, in the device code:

- every send, recv, sendto, recvfrom, sendmsg, recvmsg, sendmmsg and
  recvmmsg passes MSG_DONTWAIT in its flags (non-blocking per call,
  whatever the file's flags);
- read, write, readv, writev, pread, pwrite, accept, accept4, connect,
  poll, ppoll, select, epoll_wait and epoll_pwait (whose waiting depends on
  the file or is a wait) are allowed on files no peer holds only, and say
  so: a comment with "own-fd:" and the reason on the call's line or one of
  the three lines above it. epoll_wait/epoll_pwait/poll with a literal 0
  timeout never wait and need none;
- flock passes LOCK_NB (or LOCK_UN).

A call is a name followed by "(" that is not a member (ops->recv( is the
driver's own function) nor a declaration; comments and string literals are
ignored. Exit status 0 clean, 1 findings (printed as file:line: why), 2
usage.
"""

import os
import re
import sys

from csource import blank

SOCKET_IO = {"send", "recv", "sendto", "recvfrom", "sendmsg", "recvmsg",
             "sendmmsg", "recvmmsg"}
FILE_IO = {"read", "write", "readv", "writev", "pread", "pwrite", "accept",
           "accept4", "connect", "poll", "ppoll", "select", "epoll_wait",
           "epoll_pwait"}
ZERO_TIMEOUT = {"epoll_wait": 3, "epoll_pwait": 3, "poll": 2}
NAMES = SOCKET_IO | FILE_IO | {"flock"}
CALL = re.compile(r"(?<![\w.>])(%s)\s*\(" % "|".join(sorted(NAMES)))
ANNOTATION = "own-fd:"
ANNOTATION_LINES = 3


def call_args(code, start):
    """The argument list of the call whose "(" is at start: a list of the
    arguments' text, or None if the parentheses do not close."""
    depth, args, cur = 0, [], start + 1
    for k in range(start, len(code)):
        if code[k] == "(":
            depth += 1
        elif code[k] == ")":
            depth -= 1
            if depth == 0:
                args.append(code[cur:k])
                return [a.strip() for a in args]
        elif code[k] == "," and depth == 1:
            args.append(code[cur:k])
            cur = k + 1
    return None


def is_declaration(code, pos):
    """A prototype or definition: a type name right before the name."""
    line_start = code.rfind("\n", 0, pos) + 1
    before = code[line_start:pos].strip()
    return bool(re.fullmatch(r"(static\s+|extern\s+)?[\w\s\*]*\w[\s\*]*",
                             before)) and before not in ("", "return") \
        and not before.endswith(("=", "(", ",", "&&", "||", "!"))


def check_text(name, text):
    """Findings of one file: a list of "name:line: why"."""
    code = blank(text)
    raw_lines = text.split("\n")
    found = []
    for m in CALL.finditer(code):
        func = m.group(1)
        if is_declaration(code, m.start()):
            continue
        line = code.count("\n", 0, m.start()) + 1
        args = call_args(code, m.end() - 1)
        if args is None:
            found.append("%s:%d: %s( not closed" % (name, line, func))
            continue
        if func in SOCKET_IO:
            if not any("MSG_DONTWAIT" in a for a in args[1:]):
                found.append("%s:%d: %s() without MSG_DONTWAIT"
                             % (name, line, func))
        elif func == "flock":
            if len(args) < 2 or not re.search(r"LOCK_NB|LOCK_UN", args[1]):
                found.append("%s:%d: flock() without LOCK_NB"
                             % (name, line))
        else:
            k = ZERO_TIMEOUT.get(func)
            if k is not None and len(args) > k and args[k] == "0":
                continue
            lo = max(0, line - 1 - ANNOTATION_LINES)
            if not any(ANNOTATION in raw_lines[i] for i in range(lo, line)):
                found.append("%s:%d: %s() on a file not said to be ours "
                             "alone (an \"%s\" comment)"
                             % (name, line, func, ANNOTATION))
    return found


def check_tree(dirs):
    found = []
    for d in dirs:
        for root, _, files in os.walk(d):
            for f in sorted(files):
                if f.endswith((".c", ".h")):
                    p = os.path.join(root, f)
                    with open(p, encoding="utf-8", errors="replace") as fh:
                        found += check_text(p, fh.read())
    return found


# (sample, number of findings it must give)
SAMPLES = [
    ("n = send(fd, &b, 1, MSG_NOSIGNAL);", 1),
    ("n = send(fd, &b, 1, MSG_DONTWAIT | MSG_NOSIGNAL);", 0),
    ("n = recvmsg(fd, &mh,\n\tMSG_CMSG_CLOEXEC);", 1),
    ("n = recvmsg(fd, &mh,\n\tMSG_DONTWAIT | MSG_CMSG_CLOEXEC);", 0),
    ("if (write(fd, &one, sizeof(one)) < 0)", 1),
    ("/* own-fd: our eventfd, never passed */\n"
     "if (write(fd, &one, sizeof(one)) < 0)", 0),
    ("while (read(w->fd, &n, sizeof(n)) == sizeof(n))\n\t;", 1),
    ("n = epoll_wait(ep, ev, 8, timeout);", 1),
    ("n = epoll_wait(ep, ev, RTE_DIM(ev), 0);", 0),
    ("fd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);", 1),
    ("flock(fd, LOCK_EX);", 1),
    ("flock(fd, LOCK_EX | LOCK_NB);", 0),
    ("ret = p->ops->recv(p, &m, fd);", 0),
    ("static int recv(struct x *p);", 0),
    ("/* read(fd) would block */ x = 1;", 0),
    ("say(\"send(fd, 1)\");", 0),
]


def selftest():
    bad = 0
    for text, want in SAMPLES:
        got = check_text("sample", text)
        if len(got) != want:
            print("selftest: %r gave %d findings, not %d: %s"
                  % (text, len(got), want, got))
            bad += 1
    print("selftest: %d of %d samples as expected"
          % (len(SAMPLES) - bad, len(SAMPLES)))
    return 1 if bad else 0


def main(argv):
    if argv == ["--selftest"]:
        return selftest()
    if not argv or any(a.startswith("-") for a in argv):
        print(__doc__)
        return 2
    found = check_tree(argv)
    for f in found:
        print(f)
    if found:
        print("%d blocking call(s) on files a peer may share" % len(found))
        return 1
    print("no blocking call on a file a peer may share in %s"
          % " ".join(argv))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
