#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ism authors
"""Build one part of the documentation for meson (doc/meson.build), as
DPDK's doc/api/generate_doxygen.py and buildtools/call-sphinx-build.py do,
and write a depfile so that ninja rebuilds it when an input changes.
Warnings are errors.

    build_doc.py sphinx SPHINX_BUILD VERSION SRC_DIR OUT_DIR
    build_doc.py doxygen DOXYGEN CONF OUT_DIR HEADER...
"""

import os
import subprocess
import sys


def depfile(out_dir, inputs):
    with open(out_dir + ".d", "w") as f:
        f.write("%s: %s\n" % (out_dir.replace(" ", "\\ "),
                              " ".join(i.replace(" ", "\\ ")
                                       for i in sorted(inputs))))


def sphinx(sphinx_build, version, src, out):
    # -W: warnings are errors (a guide outside every toctree, a broken
    # reference); -n: every reference must resolve; --keep-going: report
    # them all.
    cmd = [sphinx_build, "-W", "-n", "--keep-going", "-q", "-b", "html",
           "-d", os.path.join(out, ".doctrees"), "-D", "version=" + version,
           "-D", "release=" + version, src, out]
    ret = subprocess.run(cmd).returncode
    # The directories too: a guide added (outside every toctree, say)
    # changes its directory's time, and the guides are built again.
    inputs = []
    for root, _, files in os.walk(src):
        inputs.append(root)
        inputs += [os.path.join(root, f) for f in files
                   if f.endswith((".rst", ".py"))]
    depfile(out, inputs)
    return ret


def doxygen(doxygen_bin, conf, out, headers):
    # WARN_AS_ERROR = FAIL_ON_WARNINGS in the configuration: every warning
    # is printed, then doxygen fails.
    os.makedirs(out, exist_ok=True)
    ret = subprocess.run([doxygen_bin, conf]).returncode
    depfile(out, [conf] + headers)
    return ret


def main():
    if len(sys.argv) >= 6 and sys.argv[1] == "sphinx":
        return sphinx(*sys.argv[2:6])
    if len(sys.argv) >= 5 and sys.argv[1] == "doxygen":
        return doxygen(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5:])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
