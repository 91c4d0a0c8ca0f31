#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ism authors
#
# DPDK's symbol checks of its build (lib/meson.build, drivers/meson.build
# of 25.11) over this tree's libraries: the version map generated from
# the RTE_EXPORT_*_SYMBOL marks of the sources by DPDK's own
# buildtools/gen-version-map.py, then DPDK's buildtools/check-symbols.sh
# over the objects: every function exported as experimental (internal)
# is marked __rte_experimental (__rte_internal), and every function so
# marked is exported as such. (The patch-side symbol checks, tags alone
# on their line and only in headers, export macros added to a stable
# ABI: devtools/check-dpdk-series.sh.)
#
#   devtools/check-dpdk-symbols.sh SOURCE-DIR ARCHIVE [SOURCE-DIR ARCHIVE...]
#
# SOURCE-DIR: a library's or driver's source directory (its C files, in
# subdirectories too), ARCHIVE: its static library. DPDK_VERSION (default
# 25.11): the release whose scripts are used. Status 1 with the findings,
# 77 (skipped, one line why) without that release's tarball.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
ver=${DPDK_VERSION:-25.11}
if ! tar=$("$top/devtools/dpdk-version.sh" tarball "$ver" 2>/dev/null); then
	echo "check-dpdk-symbols: no tarball of DPDK $ver: not checked"
	exit 77
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ism-dpdk-symbols.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
tar -C "$tmp" -xJf "$tar" --strip-components=1 --wildcards '*/ABI_VERSION' \
	'*/buildtools/gen-version-map.py' '*/buildtools/check-symbols.sh' \
	'*/buildtools/map-list-symbol.sh'

fail=0
n=0
while [ $# -ge 2 ]; do
	src=$1 ar=$2
	shift 2
	n=$((n + 1))
	map=$tmp/map$n
	# shellcheck disable=SC2046
	python3 "$tmp/buildtools/gen-version-map.py" --linker gnu \
		--abi-version "$tmp/ABI_VERSION" --output "$map" \
		--source $(find "$src" -name '*.c' | sort)
	if ! grep -q ';' "$map"; then
		echo "$src: no exported symbol"
		fail=1
	fi
	out=$(sh "$tmp/buildtools/check-symbols.sh" "$map" "$ar" 2>&1) ||
		{ echo "$src ($(basename "$ar")):"; echo "$out"; fail=1; }
done
[ $# = 0 ] || { echo "usage: $0 SOURCE-DIR ARCHIVE..." >&2; exit 2; }
[ $fail = 1 ] || echo "check-dpdk-symbols: $n libraries, no finding"
exit $fail
