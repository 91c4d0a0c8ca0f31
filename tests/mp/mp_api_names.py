#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ism authors
"""The functions a public header declares or defines, as a C header for
dpdk-ism-mp-tool api (mp_api.c), which calls each of them in a secondary
process: generated at build time, so that a function added to the header
and not to the test fails the test (python3 standard library only).

    mp_api_names.py HEADER OUTPUT
"""

import re
import sys


def names(text):
    """rte_ism_* functions of the header text: every name at the start of
    a declaration or definition (after its type, or at the start of a
    line), comments and preprocessor lines left out."""
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"//[^\n]*", " ", text)
    text = "\n".join(ln for ln in text.split("\n")
                     if not ln.lstrip().startswith("#") and
                     not ln.rstrip().endswith("\\"))
    found = re.findall(r"(?m)^(?:[A-Za-z_][\w \t*]*[\s*])?(rte_ism_\w+)\s*\(",
                       text)
    out = []
    for n in found:
        if n not in out:
            out.append(n)
    return out


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    with open(sys.argv[1]) as f:
        found = names(f.read())
    if len(found) < 30:
        sys.exit("%s: only %d functions found: the parser no longer fits "
                 "the header" % (sys.argv[1], len(found)))
    with open(sys.argv[2], "w") as f:
        f.write("/* Generated from %s by tests/mp/mp_api_names.py. */\n"
                % sys.argv[1].split("/")[-1])
        f.write("#define MP_API_NAMES \\\n")
        f.write(" \\\n".join('\t"%s",' % n for n in found) + "\n")


if __name__ == "__main__":
    main()
