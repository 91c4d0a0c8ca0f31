#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ism authors
"""The devargs and backend names the documents give, against the code.

    devargs_check.py SRC            check; status 1 and what differs
    devargs_check.py SRC --print    the devargs of each driver, as the
                                    code registers them

The code: each driver's RTE_PMD_REGISTER_PARAM_STRING (drivers/, and the
tests' ism_pcimodel of tests/ism_device; the keys of its
parameter string, which DPDK's pmdinfo and usertools show) and the name of
each backend of drivers/raw/ism (its ops' .name, which
rte_ism_dev_info.backend reports).

The documents mark what they derive from it, on the line before:

  .. devargs-synopsis: DRIVER     a synopsis line: its "key=" are the keys
  <!-- devargs-synopsis: DRIVER -->
  .. devargs-list: DRIVER         a definition list: its ``key`` terms
                                  (up to the next line at column 0)
  .. devargs-table: DRIVER        a csv-table: the key of each row's
                                  first cell ("key=value")
  <!-- devargs-table -->          the README's device table: per row, the
                                  driver its first cell names and the
                                  keys of its "devargs" column
  .. devargs-keys: DRIVER KEY...  keys the marked list omits on purpose
                                  (the next marker of that DRIVER)

and each comment of a "backend" member (rte_ism.h, ism_driver.h,
ism_pmd.h) lists the backend names in quotes. Unmarked places are not
checked; the test fails when a marker finds nothing, and when a driver of
the code has no synopsis.
"""

import glob
import os
import re
import sys

PARAM = re.compile(r"RTE_PMD_REGISTER_PARAM_STRING\(\s*(\w+)\s*,(.*?)\);",
                   re.S)
STRING = re.compile(r'"((?:[^"\\]|\\.)*)"')
KEY = re.compile(r"(?:^|\s)([a-z][\w-]*)=")
MARK = re.compile(r"^\s*(?:\.\.\s+|<!--\s*)(devargs-[a-z]+):?\s*(.*?)\s*"
                  r"(?:-->)?\s*$")
SYN_KEY = re.compile(r",([a-z][\w-]*)=")
TERM = re.compile(r"^``([a-z][\w-]*)``")
TERM_MORE = re.compile(r"``([a-z][\w-]*)``")
BACKEND = re.compile(r"\.name\s*=\s*\"(\w+)\"")


def macro(src, name):
    """The string literals of #define NAME, with its continuation lines."""
    for path in glob.glob(os.path.join(src, "drivers", "**", "*.h"),
                          recursive=True):
        text = open(path).read()
        m = re.search(r"#define\s+%s\b((?:.*\\\n)*.*)" % re.escape(name),
                      text)
        if m:
            return "".join(STRING.findall(m.group(1)))
    return None


def code_params(src):
    """{driver: [keys in the order of its parameter string]}"""
    out = {}
    for path in sorted(glob.glob(os.path.join(src, "drivers", "**", "*.c"),
                                 recursive=True) +
                       glob.glob(os.path.join(src, "tests", "ism_device",
                                              "**", "*.c"), recursive=True)):
        for name, arg in PARAM.findall(open(path).read()):
            lits = STRING.findall(arg)
            text = "".join(lits) if lits else macro(src, arg.strip())
            if text is None:
                raise SystemExit("%s: %s: cannot read %s" % (path, name,
                                                             arg.strip()))
            out[name] = KEY.findall(text)
    return out


def code_backends(src):
    """The .name of each struct ism_backend of drivers/raw/ism."""
    names = set()
    for path in glob.glob(os.path.join(src, "drivers", "raw", "ism", "*",
                                       "*.c")):
        for body in re.findall(r"struct ism_backend \w+ = \{(.*?)\};",
                               open(path).read(), re.S):
            names.update(BACKEND.findall(body))
    return names


def readme_driver(cell):
    """The driver a README device-table row is about (its first cell)."""
    if "net_ism" in cell:
        return "net_ism"
    if "fabric=ivshmem" in cell:
        return "ism_ivshm_pci"
    for d in ("ism_lo", "ism_shm", "ism_ivshm"):
        if "=" + d in cell:
            return d
    if "ism:" in cell:
        return "ism_pci"
    return None


def doc_marks(path):
    """(line, kind, args, keys) of each marker of the document."""
    lines = open(path).read().split("\n")
    out = []
    for i, line in enumerate(lines):
        m = MARK.match(line)
        if not m:
            continue
        kind, args = m.group(1), m.group(2).split()
        rest = lines[i + 1:]
        while rest and not rest[0].strip():
            rest = rest[1:]
        if kind == "devargs-synopsis":
            keys = SYN_KEY.findall(rest[0]) if rest else []
            out.append((i + 1, kind, args, keys))
        elif kind == "devargs-list":
            keys = []
            for r in rest:
                if TERM.match(r):
                    keys += TERM_MORE.findall(r.split(" (")[0])
                elif r.strip() and not r[0].isspace():
                    break
            out.append((i + 1, kind, args, keys))
        elif kind == "devargs-table" and args:
            keys = []
            for r in rest:
                m2 = re.match(r'^\s+"([a-z][\w-]*)=', r)
                if m2:
                    keys.append(m2.group(1))
                elif r.strip() and not r.strip().startswith(":") and \
                        not r.strip().startswith(".. csv-table"):
                    break
            out.append((i + 1, kind, args, keys))
        elif kind == "devargs-table":
            rows, col = {}, None
            for r in rest:
                if not r.startswith("|"):
                    break
                cells = [c.strip() for c in r.strip().strip("|").split("|")]
                if col is None:
                    col = cells.index("devargs") if "devargs" in cells \
                        else -1
                    continue
                d = readme_driver(cells[0])
                if d and col >= 0:
                    rows[d] = re.findall(r"`([a-z][\w-]*)`", cells[col])
            for d, keys in rows.items():
                out.append((i + 1, kind, [d], keys))
            if not rows:
                out.append((i + 1, kind, ["?"], []))
        elif kind == "devargs-keys":
            out.append((i + 1, kind, args[:1], args[1:]))
    return out


def check(src):
    params = code_params(src)
    backends = code_backends(src)
    errs = []
    if not params:
        errs.append("no RTE_PMD_REGISTER_PARAM_STRING found")
    if not backends:
        errs.append("no backend name found")
    docs = [os.path.join(src, "README.md")] + sorted(
        glob.glob(os.path.join(src, "doc", "guides", "**", "*.rst"),
                  recursive=True))
    synopsis = set()
    for path in docs:
        rel = os.path.relpath(path, src)
        omit = {}
        for line, kind, args, keys in doc_marks(path):
            where = "%s:%d" % (rel, line)
            if kind == "devargs-keys":
                omit[args[0]] = set(keys)
                continue
            if not args or args[0] not in params:
                errs.append("%s: %s names no driver of the code (%s)" % (
                    where, kind, " ".join(sorted(params))))
                continue
            d = args[0]
            want = set(params[d]) - omit.pop(d, set())
            if not keys:
                errs.append("%s: %s %s: no devargs found after it" % (
                    where, kind, d))
            elif set(keys) != want:
                errs.append("%s: %s %s: the document has %s, the code %s" % (
                    where, kind, d, " ".join(sorted(keys)),
                    " ".join(sorted(want))))
            if kind == "devargs-synopsis":
                synopsis.add(d)
    for d in sorted(set(params) - synopsis):
        errs.append("%s: no synopsis of its devargs (.. devargs-synopsis: "
                    "%s) in the guides" % (d, d))
    for rel, member in (("lib/ism/rte_ism.h", "backend"),
                        ("lib/ism/ism_driver.h", "backend"),
                        ("drivers/raw/ism/ism_pmd.h", "name")):
        text = open(os.path.join(src, rel)).read()
        m = re.search(r"\*\s*%s;.*" % member, text)
        if not m:
            errs.append("%s: no backend member" % rel)
            continue
        named = set(re.findall(r'"(\w+)"', m.group(0)))
        if named != backends:
            errs.append("%s: the backend comment names %s, the code has %s"
                        % (rel, " ".join(sorted(named)),
                           " ".join(sorted(backends))))
    return errs


def main():
    if len(sys.argv) < 2:
        raise SystemExit(__doc__)
    src = sys.argv[1]
    if "--print" in sys.argv[2:]:
        for d, keys in sorted(code_params(src).items()):
            print("%-15s %s" % (d, " ".join(keys)))
        print("backends: %s" % " ".join(sorted(code_backends(src))))
        return 0
    errs = check(src)
    for e in errs:
        print("FAIL: " + e)
    if errs:
        return 1
    print("the devargs and backend names of the documents are the code's")
    return 0


if __name__ == "__main__":
    sys.exit(main())
