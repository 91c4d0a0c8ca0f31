#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ism authors
"""Check that a backend's fast-path functions do no control-plane work.

The fast-path functions are those a backend installs in the device's table
(an assignment "X.fp.FIELD = FUNCTION;" in a .c file of the folder, each
function a conditional expression may pick included), and the static
functions and static inline functions of the folder they call, followed
call by call. Their bodies (comments, strings and preprocessor lines
removed: devtools/csource.py) must not:

  - take or try a lock: a call of pthread_*, of a DPDK lock (rte_spinlock,
    rte_rwlock, rte_mcslock, rte_ticketlock, rte_seqlock) or of any name
    with "lock" in it;
  - read the clock to decide on control work: rte_get_tsc_cycles(),
    rte_rdtsc*(), rte_get_timer_cycles(), clock_gettime();
  - touch process-wide state of the backend: a variable defined at file
    scope in the folder (static or not) or declared extern in one of its
    headers;
  - call a non-static function of the folder: those are its control
    plane (the fast path reaches the shared data path, sw/ and the
    library's inline bracket, by their own names).

What the shared data path (drivers/raw/ism/sw/, lib/ism) does is not
followed: the move bracket's per-lcore sequence is how moves and the
control path meet, the same for every backend.

  devtools/check-fastpath.py FOLDER
  devtools/check-fastpath.py --selftest

Exit status 0 if the fast path is clean, 1 if not (each violation
printed), 2 on a usage error.
"""

import argparse
import os
import re
import shutil
import sys
import tempfile

from csource import IDENT, blank, closing, functions

IDENT_RX = re.compile(r'\b(' + IDENT + r')\b')
CALL_RX = re.compile(r'\b(' + IDENT + r')\s*\(')
FP_SET_RX = re.compile(r'\bfp\s*\.\s*(' + IDENT + r')\s*=([^;]*);')
LOCK_RX = re.compile(r'^(pthread_\w+|rte_(spinlock|rwlock|mcslock|ticketlock|'
                     r'seqlock)\w*|\w*lock\w*)$', re.I)
CLOCK_RX = re.compile(r'^(rte_get_tsc_cycles|rte_rdtsc\w*|rte_get_timer_cycles|'
                      r'clock_gettime)$')
KEYWORDS = {'if', 'for', 'while', 'switch', 'return', 'sizeof', 'defined',
            'alignof', 'typeof', '_Static_assert', 'offsetof', 'else',
            'do'}


def file_scope_vars(code):
    """Names of the variables a file defines or declares at file scope."""
    names = set()
    stmt, i, n = [], 0, len(code)
    while i < n:
        c = code[i]
        if c == '{':
            text = ''.join(stmt).strip()
            if text.endswith(')'):
                # A function body: skip it.
                stmt, i = [], closing(code, i) + 1
                continue
            # A struct or an initializer: kept as {}.
            stmt.append(' {} ')
            i = closing(code, i) + 1
            continue
        if c == ';':
            text = ' '.join(''.join(stmt).split())
            stmt = []
            i += 1
            if not text or text.startswith('typedef'):
                continue
            decl = text.split('=')[0]
            # A prototype, or a struct, enum or union declared alone.
            if '(' in decl.split('[')[0] and not re.search(
                    r'\(\s*\*\s*' + IDENT + r'\s*\)', decl):
                continue
            ids = IDENT_RX.findall(re.sub(r'\[[^]]*\]', '', decl.replace(
                '{}', '')))
            if not ids or re.fullmatch(r'\s*(struct|enum|union)(\s+' + IDENT +
                                       r')?\s*', decl.replace('{}', '')):
                continue
            m = re.search(r'\(\s*\*\s*(' + IDENT + r')\s*\)', decl)
            name = m.group(1) if m else ids[-1]
            if len(ids) >= 2 or m:
                names.add(name)
            continue
        stmt.append(c)
        i += 1
    return names


def check(folder):
    files = sorted(f for f in os.listdir(folder)
                   if f.endswith('.c') or f.endswith('.h'))
    code = {}
    for f in files:
        with open(os.path.join(folder, f)) as fh:
            code[f] = blank(fh.read(), cpp=True)
    defs, owner = {}, {}
    globals_ = {}
    for f in files:
        for name, (static, body) in functions(code[f]).items():
            defs[name] = (static, body)
            owner[name] = f
        for v in file_scope_vars(code[f]):
            globals_.setdefault(v, f)
    roots = set()
    for f in files:
        if not f.endswith('.c'):
            continue
        for m in FP_SET_RX.finditer(code[f]):
            for name in IDENT_RX.findall(m.group(2)):
                if name in defs:
                    roots.add(name)
    if not roots:
        return ['%s: no fast-path function found (no "fp.X = FUNCTION;")'
                % folder]
    errors = []
    seen, todo = set(), sorted(roots)
    while todo:
        fn = todo.pop(0)
        if fn in seen:
            continue
        seen.add(fn)
        static, body = defs[fn]
        where = '%s: %s()' % (owner[fn], fn)
        if not static:
            errors.append('%s: a fast-path function that is not static '
                          '(the control plane\'s are not)' % where)
        called = set(n for n in CALL_RX.findall(body) if n not in KEYWORDS)
        for name in sorted(called):
            if LOCK_RX.match(name):
                errors.append('%s calls %s(): a lock' % (where, name))
            elif CLOCK_RX.match(name):
                errors.append('%s calls %s(): a clock, for control work'
                              % (where, name))
            elif name in defs:
                if defs[name][0]:
                    todo.append(name)
                else:
                    errors.append('%s calls %s() (%s): control plane'
                                  % (where, name, owner[name]))
        for name in sorted(set(IDENT_RX.findall(body))):
            if name in globals_ and name not in called:
                errors.append('%s uses %s (%s): process-wide state'
                              % (where, name, globals_[name]))
    return errors


SELFTEST = {
    'clean': ('''
static uint64_t quiet;
static inline int
look(const void *ctx, int x)
{
	return x + 1;
}
static int
fp_move(void *ctx, int x)
{
	/* No pthread_mutex_lock(&m) here: comments and strings are no
	 * calls. */
	return look(ctx, x) + (int)sizeof("ctl_lock(quiet)");
}
void
fast_path(struct dev *d)
{
	quiet++;
	d->fp.move = fp_move;
}
''', 0),
    'lock': ('''
pthread_mutex_t big_lock;
void ctl_catch_up(void);
static int
fp_poll(void *ctx)
{
	if (pthread_mutex_trylock(&big_lock) == 0)
		ctl_catch_up();
	return 0;
}
void
fast_path(struct dev *d)
{
	d->fp.poll = fp_poll;
}
void
ctl_catch_up(void)
{
}
''', 3),
    'global': ('''
uint64_t due = UINT64_MAX;
static struct {
	int users;
} ctl = { .users = 0 };
static inline int
helper(void)
{
	return ctl.users + rte_get_tsc_cycles() > due;
}
static int
fp_move(void *ctx)
{
	return helper();
}
void
fast_path(struct dev *d, bool f)
{
	d->fp.move = f ? fp_move : NULL;
}
''', 3),
}


def selftest():
    ok = True
    tmp = tempfile.mkdtemp(prefix='check-fastpath-')
    try:
        for name, (text, want) in SELFTEST.items():
            d = os.path.join(tmp, name)
            os.mkdir(d)
            with open(os.path.join(d, 'x.c'), 'w') as f:
                f.write(text)
            errors = check(d)
            good = len(errors) == want
            ok &= good
            print('%s %s: %d violation(s), %d expected' %
                  ('ok  ' if good else 'FAIL', name, len(errors), want))
            for e in errors:
                print('      ' + e)
    finally:
        shutil.rmtree(tmp)
    return 0 if ok else 1


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('folder', nargs='?')
    ap.add_argument('--selftest', action='store_true')
    args = ap.parse_args()
    if args.selftest:
        return selftest()
    if args.folder is None or not os.path.isdir(args.folder):
        ap.print_usage()
        return 2
    errors = check(args.folder)
    for e in errors:
        print(e)
    if errors:
        print('check-fastpath: %d violation(s) in %s' % (len(errors),
                                                          args.folder))
        return 1
    print('check-fastpath: %s: the fast path takes no lock and touches no '
          'process-wide state' % args.folder)
    return 0


if __name__ == '__main__':
    sys.exit(main())
