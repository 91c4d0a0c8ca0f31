#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ism authors
"""Check that calls inside a source folder go one way: down its layers.

The folder's overview header names its layers, lowest first, in a block
of its file-level comment:

     * Layers, lowest first: a file calls only into its own layer and the
     * ones below, never up (devtools/check-layers.py checks it).
     *   1  ism_shm_msg
     *   2  ism_shm_mem ism_shm_loop
     *   ...

Each name is a file stem: NAME.c and NAME.h belong to that layer. The check
reads every .c and .h of the folder (comments and strings removed:
devtools/csource.py), finds
the functions each defines (non-static ones, and static inline ones of a
header) and the calls and #includes of each file, and fails on:

  - a call from a file to a function defined in a higher layer;
  - an #include "X.h" of a higher layer's header;
  - a file of the folder that no layer names (the reaper program and the
    overview header itself are listed as layer 0: they call nothing of
    the others).

Calls through function pointers (handlers and timers that a higher layer
registers with a lower one) are what the layering allows, and are not
calls by name.

  devtools/check-layers.py [--overview FILE] FOLDER
  devtools/check-layers.py --selftest

Exit status 0 if the folder is layered, 1 if not (each violation printed),
2 on a usage error.
"""

import argparse
import os
import re
import shutil
import sys
import tempfile

from csource import IDENT, blank, functions

LAYERS_RX = re.compile(r'Layers, lowest first')
ROW_RX = re.compile(r'^\s*\*\s+(\d+)\s+((?:[A-Za-z_][A-Za-z0-9_]*\s*)+)$')
CALL_RX = re.compile(r'\b(' + IDENT + r')\s*\(')
INCLUDE_RX = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
KEYWORDS = {'if', 'for', 'while', 'switch', 'return', 'sizeof', 'defined',
            'alignof', 'typeof', '_Static_assert', 'offsetof'}


def read_layers(overview):
    """{stem: layer} from the overview header's comment."""
    layers = {}
    started = False
    with open(overview) as f:
        for line in f:
            if not started:
                started = bool(LAYERS_RX.search(line))
                continue
            m = ROW_RX.match(line.rstrip())
            if m:
                for stem in m.group(2).split():
                    layers[stem] = int(m.group(1))
            elif layers:
                break
    return layers


def definitions(code, header):
    """Names of the functions a file defines for others (csource's
    functions()): static ones only in a header (static inline)."""
    return set(name for name, (static, _) in functions(code).items()
               if header or not static)


def check(folder, overview):
    errors = []
    layers = read_layers(overview)
    if not layers:
        return ['%s: no "Layers, lowest first" block' % overview]
    files = sorted(f for f in os.listdir(folder)
                   if f.endswith('.c') or f.endswith('.h'))
    code, raw = {}, {}
    for f in files:
        with open(os.path.join(folder, f)) as fh:
            raw[f] = fh.read()
        code[f] = blank(raw[f])
    owner = {}
    for f in files:
        stem = f[:-2]
        if stem not in layers:
            errors.append('%s: in no layer of %s' % (f, overview))
            continue
        for name in definitions(code[f], f.endswith('.h')):
            owner.setdefault(name, f)
    for f in files:
        stem = f[:-2]
        if stem not in layers:
            continue
        mine = layers[stem]
        for m in INCLUDE_RX.finditer(raw[f]):
            inc = os.path.basename(m.group(1))
            if not inc.endswith('.h') or inc[:-2] not in layers:
                continue
            if layers[inc[:-2]] > mine:
                line = raw[f].count('\n', 0, m.start()) + 1
                errors.append('%s:%d: includes %s of layer %d from layer '
                              '%d' % (f, line, inc, layers[inc[:-2]],
                                      mine))
        for m in CALL_RX.finditer(code[f]):
            name = m.group(1)
            if name in KEYWORDS or name not in owner:
                continue
            # A definition is not a call.
            if m.start() == 0 or code[f][m.start() - 1] == '\n':
                continue
            target = owner[name]
            theirs = layers[target[:-2]]
            if theirs > mine:
                line = code[f].count('\n', 0, m.start()) + 1
                errors.append('%s:%d: calls %s() of %s (layer %d) from '
                              'layer %d' % (f, line, name, target, theirs,
                                            mine))
    return errors


SELFTEST_OVERVIEW = '''/*
 * Layers, lowest first:
 *   0  top
 *   1  low
 *   2  high
 */
'''
SELFTEST_LOW = '''#include "low.h"
/* Not high_fn(x): a name in a comment or a string is no call. */
int
low_fn(int x)
{
	return x + (int)sizeof("high_fn(x)");
}
'''
SELFTEST_HIGH = '''#include "low.h"
#include "high.h"
/* high_fn() calls down: fine. */
int
high_fn(int x)
{
	return low_fn(x) * 2;
}
'''


def selftest():
    """The check passes a folder that calls down, and refuses one call and
    one include up, and a file of no layer."""
    tmp = tempfile.mkdtemp(prefix='ism-layers-')
    try:
        files = {'top.h': SELFTEST_OVERVIEW, 'low.c': SELFTEST_LOW,
                 'low.h': 'int low_fn(int x);\n',
                 'high.c': SELFTEST_HIGH, 'high.h': 'int high_fn(int x);\n'}
        for name, text in files.items():
            with open(os.path.join(tmp, name), 'w') as f:
                f.write(text)
        ov = os.path.join(tmp, 'top.h')
        errs = check(tmp, ov)
        if errs:
            print('selftest: a folder that calls down was refused: %s' %
                  errs)
            return 1
        with open(os.path.join(tmp, 'low.c'), 'a') as f:
            f.write('int\nlow_up(void)\n{\n\treturn high_fn(1);\n}\n')
        errs = check(tmp, ov)
        if not any('calls high_fn()' in e for e in errs):
            print('selftest: a call up was not refused: %s' % errs)
            return 1
        with open(os.path.join(tmp, 'low.h'), 'a') as f:
            f.write('#include "high.h"\n')
        errs = check(tmp, ov)
        if not any('includes high.h' in e for e in errs):
            print('selftest: an include up was not refused: %s' % errs)
            return 1
        with open(os.path.join(tmp, 'stray.c'), 'w') as f:
            f.write('int x;\n')
        errs = check(tmp, ov)
        if not any('stray.c: in no layer' in e for e in errs):
            print('selftest: a file of no layer was not refused: %s' % errs)
            return 1
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print('check-layers selftest: calls and includes up refused')
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--overview', help='the header with the layer block '
                    '(default: FOLDER/<folder name>.h with an ism_ prefix)')
    ap.add_argument('--selftest', action='store_true')
    ap.add_argument('folder', nargs='?')
    a = ap.parse_args()
    if a.selftest:
        return selftest()
    if a.folder is None:
        ap.print_usage()
        return 2
    overview = a.overview or os.path.join(
        a.folder, 'ism_%s.h' % os.path.basename(os.path.normpath(a.folder)))
    errors = check(a.folder, overview)
    for e in errors:
        print(e)
    if errors:
        print('check-layers: %d call(s) or include(s) against the layers of '
              '%s' % (len(errors), overview))
        return 1
    print('check-layers: %s calls down only (%d files)' %
          (a.folder, len([f for f in os.listdir(a.folder)
                          if f.endswith(('.c', '.h'))])))
    return 0


if __name__ == '__main__':
    sys.exit(main())
