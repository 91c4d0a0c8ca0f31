#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ism authors
#
# DPDK's own checks of a tree, as DPDK 25.11's maintainers run them, over
# this tree, with DPDK's scripts taken from the release tarball that
# devtools/dpdk-version.sh finds:
#   check-meson.py        the indentation of every meson.build
#   check-dup-includes.sh no header included twice in a C file
#   check-spdx-tag.sh     an SPDX tag on every file; not applicable to
#                         platform/s390x (DPDK's own files, patched and as
#                         patches, checked in DPDK's tree) and to the
#                         binary fuzz inputs of tests/fuzz/regress
# (check-forbidden-tokens: devtools/check-forbidden-tokens.sh.)
#
#   devtools/check-dpdk.sh [VERSION]     (default 25.11)
#
# Prints each finding; status 1 if there is any, 77 (skipped) without a
# tarball of that DPDK.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
ver=${1:-25.11}
if ! tar=$("$top/devtools/dpdk-version.sh" tarball "$ver"); then
	echo "check-dpdk: no tarball of DPDK $ver: DPDK's checks not run"
	exit 77
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ism-dpdk-checks.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
tar -C "$tmp" -xJf "$tar" --strip-components=1 --wildcards \
	'*/devtools/check-meson.py' '*/devtools/check-dup-includes.sh' \
	'*/devtools/check-spdx-tag.sh'
echo "check-dpdk: the checks of $(basename "$tar" .tar.xz)"

fail=0
cd "$top"
out=$(python3 "$tmp/devtools/check-meson.py" -d .)
[ -z "$out" ] || { echo "$out"; fail=1; }
out=$(sh "$tmp/devtools/check-dup-includes.sh" "$top")
[ -z "$out" ] || { echo "$out"; fail=1; }
# -q: the totals only; the files without a tag are listed by git grep as
# the script does, less those it does not apply to. (Its license
# exceptions file is DPDK's: none here.)
out=$(sh "$tmp/devtools/check-spdx-tag.sh" 2>/dev/null |
	grep -v -e '^total:' -e '^platform/s390x/' -e '^tests/fuzz/regress/' ||
	true)
[ -z "$out" ] || { echo "check-spdx-tag.sh:"; echo "$out"; fail=1; }
if [ $fail = 0 ]; then
	echo "check-dpdk: check-meson.py, check-dup-includes.sh," \
		"check-spdx-tag.sh: no finding"
fi
exit $fail
