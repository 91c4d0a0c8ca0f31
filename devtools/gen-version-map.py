#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ism authors
"""Write the linker version script of a library from its C sources.

The sources mark what they export as DPDK's do from 25.07 on (the macros
of DPDK's lib/eal/common/eal_export.h, which its build reads the same way):
a line RTE_EXPORT_EXPERIMENTAL_SYMBOL(name, version) or
RTE_EXPORT_INTERNAL_SYMBOL(name) before the definition. Inside DPDK's tree
DPDK's own build makes the map; out of its tree (config/eal_export.h
defines the macros as nothing) this script does, so that the sources are
the one list of what a library exports.

usage: gen-version-map.py OUTPUT SOURCE...
"""

import re
import sys

EXPERIMENTAL = re.compile(
    r"^RTE_EXPORT_EXPERIMENTAL_SYMBOL\((\w+), ([0-9]+\.[0-9]+)\)")
INTERNAL = re.compile(r"^RTE_EXPORT_INTERNAL_SYMBOL\((\w+)\)")
# Stable symbols (RTE_EXPORT_SYMBOL) have no node here: the tree has none,
# and a stable ABI is DPDK's promise, made in DPDK's tree.
STABLE = re.compile(r"^RTE_EXPORT_SYMBOL\(")
# The node every symbol not listed falls into (local), as in DPDK's maps;
# the shared libraries of the tree have carried this name since 0.1.
BASE = "DPDK_23"


def main(argv):
    if len(argv) < 2:
        sys.stderr.write(__doc__)
        return 2
    experimental = {}
    internal = set()
    for path in argv[1:]:
        with open(path, encoding="utf-8") as src:
            for line in src:
                m = EXPERIMENTAL.match(line)
                if m:
                    experimental.setdefault(m.group(2), set()).add(
                        m.group(1))
                    continue
                m = INTERNAL.match(line)
                if m:
                    internal.add(m.group(1))
                    continue
                if STABLE.match(line):
                    sys.stderr.write(f"{path}: RTE_EXPORT_SYMBOL: no stable"
                                     " ABI out of DPDK's tree\n")
                    return 1
    out = [f"{BASE} {{", "\tlocal: *;", "};"]
    if experimental:
        out += ["", "EXPERIMENTAL {", "\tglobal:"]
        for ver in sorted(experimental):
            out += ["", f"\t# added in {ver}"]
            out += [f"\t{s};" for s in sorted(experimental[ver])]
        out += ["};"]
    if internal:
        out += ["", "INTERNAL {", "\tglobal:", ""]
        out += [f"\t{s};" for s in sorted(internal)]
        out += ["};"]
    with open(argv[0], "w", encoding="utf-8") as dst:
        dst.write("\n".join(out) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
