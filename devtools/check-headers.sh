#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ism authors
#
# Every installed header compiles on its own, in C and in C++, as DPDK's
# -Dcheck_includes=true checks its own (buildtools/chkincs): a file that
# includes just that header, compiled without, with ALLOW_EXPERIMENTAL_API
# and with ALLOW_INTERNAL_API too, by gcc, clang, g++ and clang++ (those
# found), with warnings as errors. The headers are laid flat into one
# directory as the install lays them (include/dpdk-ism).
#
#   devtools/check-headers.sh [-s SDK_CFLAGS] [-v VERSION]... HEADER...
#
# The DPDK is the one pkg-config finds (PKG_CONFIG_PATH: the build's),
# its driver-SDK headers from SDK_CFLAGS when it has none of its own;
# each -v VERSION (e.g. 25.11) adds a DPDK devtools/dpdk-version.sh has
# built on this machine already (not built: said, and left out).
# Status 1 with the compilers' errors on a finding.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
sdk_cflags=
versions=
while getopts s:v: opt; do
	case $opt in
	s) sdk_cflags=$OPTARG ;;
	v) versions="$versions $OPTARG" ;;
	*) exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -gt 0 ] || { echo "usage: $0 [-s SDK_CFLAGS] [-v VER]... HEADER..."; exit 2; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/ism-chkincs.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/include"
for h in "$@"; do
	cp "$h" "$tmp/include/"
done

# The DPDKs: name and compiler flags, one per line. DPDK's directories
# as system ones, as to its users: the warnings of DPDK's own headers
# (22.11's GCC_VERSION tests under clang's -Wundef) are not this tree's.
system_dirs() {
	for f in "$@"; do
		case $f in
		-I*) printf ' -isystem %s' "${f#-I}" ;;
		*) printf ' %s' "$f" ;;
		esac
	done
}
dpdk_cflags() {
	# shellcheck disable=SC2046
	system_dirs $(pkg-config --cflags libdpdk)
}
if ! base=$(dpdk_cflags); then
	echo "check-headers: pkg-config finds no libdpdk"
	exit 1
fi
# shellcheck disable=SC2086
printf 'DPDK %s\t%s %s\n' "$(pkg-config --modversion libdpdk)" "$base" \
	"$(system_dirs $sdk_cflags)" >"$tmp/dpdks"
for v in $versions; do
	if p=$(DPDK_NO_FETCH=1 "$top/devtools/dpdk-version.sh" find "$v" \
			2>/dev/null); then
		pc=$(dirname "$(find "$p" -name libdpdk.pc | head -n 1)")
		printf 'DPDK %s\t%s\n' "${p##*/install-}" \
			"$(PKG_CONFIG_PATH=$pc dpdk_cflags)" >>"$tmp/dpdks"
	else
		echo "check-headers: DPDK $v is not built on this machine" \
			"(devtools/dpdk-version.sh prefix $v): not checked against it"
	fi
done

# Warnings as DPDK's build gives them to every file (config/meson.build's
# global list), C's own for C only.
warn="-Wall -Wextra -Werror -Wcast-qual -Wdeprecated -Wformat
-Wformat-nonliteral -Wformat-security -Wpointer-arith -Wsign-compare -Wundef
-Wwrite-strings -Wno-missing-field-initializers"
warn_c="-Wmissing-declarations -Wmissing-prototypes -Wnested-externs
-Wold-style-definition -Wstrict-prototypes"
compilers=
for c in gcc clang g++ clang++; do
	command -v $c >/dev/null 2>&1 && compilers="$compilers $c"
done

fail=0
n=0
tab=$(printf '\t')
while IFS=$tab read -r dpdk flags; do
	for c in $compilers; do
		case $c in
		*++) lang="-x c++ -std=c++11"; w=$warn ;;
		*) lang="-x c -std=gnu11"; w="$warn $warn_c" ;;
		esac
		for mode in "" "-DALLOW_EXPERIMENTAL_API" \
				"-DALLOW_EXPERIMENTAL_API -DALLOW_INTERNAL_API"; do
			for h in "$@"; do
				b=$(basename "$h")
				printf '#include "%s"\n' "$b" >"$tmp/t.c"
				n=$((n + 1))
				# shellcheck disable=SC2086
				out=$($c -fsyntax-only $lang $w $mode \
					-I"$tmp/include" $flags "$tmp/t.c" \
					2>&1) && continue
				echo "check-headers: $b alone, $c" \
					"${mode:-(stable API only)}, $dpdk:"
				printf '%s\n' "$out"
				fail=1
			done
		done
	done
done <"$tmp/dpdks"
if [ $fail = 0 ]; then
	echo "check-headers: $# headers compile alone: $n compilations" \
		"($(echo "$compilers" | sed 's/^ //; s/ /,/g'); 3 API levels;" \
		"$(cut -f1 "$tmp/dpdks" | paste -sd, -))"
fi
exit $fail
