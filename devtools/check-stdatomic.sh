#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ism authors
#
# The C files of lib/ and drivers/ as DPDK's clang build with
# -Denable_stdatomic=true sees them: clang -fsyntax-only against the
# headers of DPDK 25.11 (built once per machine by devtools/dpdk-version.sh)
# with RTE_ENABLE_STDATOMIC defined. There rte_atomic_*_explicit() are
# C11's atomic_*_explicit(), which take only pointers to _Atomic objects:
# an object accessed atomically but declared without RTE_ATOMIC(T) is an
# error, where GCC's build (the __atomic builtins) takes any type.
#
#   devtools/check-stdatomic.sh [FILE.c...]   (default: lib/, drivers/)
#
# Status 1 with clang's errors on a finding, 77 (skipped, one line why)
# without clang or a built DPDK 25.11. CC_STDATOMIC (default clang) and
# DPDK_STDATOMIC_PREFIX (an installed DPDK 25.11, instead of asking
# dpdk-version.sh) override.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
cc=${CC_STDATOMIC:-clang}
if ! command -v "$cc" >/dev/null 2>&1; then
	echo "check-stdatomic: no $cc: the stdatomic pass is not run"
	exit 77
fi
if [ -n "${DPDK_STDATOMIC_PREFIX:-}" ]; then
	prefix=$DPDK_STDATOMIC_PREFIX
elif ! prefix=$(DPDK_NO_FETCH=1 "$top/devtools/dpdk-version.sh" find 25.11 \
		2>/dev/null); then
	echo "check-stdatomic: DPDK 25.11 is not built on this machine" \
		"(devtools/dpdk-version.sh prefix 25.11): the stdatomic pass" \
		"is not run"
	exit 77
fi
inc=$prefix/include
if [ ! -f "$inc/rte_stdatomic.h" ] || [ ! -f "$inc/rte_build_config.h" ]; then
	echo "check-stdatomic: no rte_stdatomic.h/rte_build_config.h in $inc:" \
		"the stdatomic pass is not run"
	exit 77
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/ism-stdatomic.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
# The installed configuration is that of a build without the option
# (#undef RTE_ENABLE_STDATOMIC): a copy with it set comes first.
sed 's/^#undef RTE_ENABLE_STDATOMIC$/#define RTE_ENABLE_STDATOMIC 1/' \
	"$inc/rte_build_config.h" >"$tmp/rte_build_config.h"
grep -q '^#define RTE_ENABLE_STDATOMIC' "$tmp/rte_build_config.h" || {
	echo "check-stdatomic: $inc/rte_build_config.h has no" \
		"RTE_ENABLE_STDATOMIC line to set"
	exit 1
}

cd "$top"
if [ $# = 0 ]; then
	# shellcheck disable=SC2046
	set -- $(find lib drivers -name '*.c' | LC_ALL=C sort)
fi
# Every directory of the tree that holds a header of lib/, drivers/ or
# config/ (the build gives each component its own and its dependencies').
dirs="-I$tmp -I$inc -Iconfig"
for d in $(find lib drivers -name '*.h' -exec dirname {} \; | LC_ALL=C sort -u)
do
	dirs="$dirs -I$d"
done
arch=
case $(uname -m) in
x86_64) arch="-mavx2 -DISM_SW_HAVE_COPY_WIDE" ;;
esac

# The defines of the components' meson files that the sources test.
# Errors only, and the warnings that mix a plain and an atomic type
# (errors of DPDK's -Werror build): the other warnings are the builds'
# business. One compiler per file keeps the file named in front of its
# errors.
fail=0
for f in "$@"; do
	# shellcheck disable=SC2086
	out=$("$cc" -fsyntax-only -std=gnu11 -include rte_config.h \
		-D_GNU_SOURCE -DALLOW_EXPERIMENTAL_API -DALLOW_INTERNAL_API \
		-DRTE_LOG_DEFAULT_LOGTYPE=check.stdatomic \
		-DSHM_REAPER_NAME='"reaper"' -DSHM_REAPER_PATH='"/reaper"' \
		$arch -Wno-everything -Werror=incompatible-pointer-types \
		-Werror=incompatible-pointer-types-discards-qualifiers \
		-ferror-limit=0 $dirs "$f" 2>&1) || {
		printf '%s\n' "$out"
		fail=1
	}
done
n=$#
if [ $fail = 0 ]; then
	echo "check-stdatomic: $n files compile with clang and" \
		"RTE_ENABLE_STDATOMIC (DPDK ${prefix##*/install-})"
else
	echo "check-stdatomic: errors above (an object accessed with" \
		"rte_atomic_*_explicit must be declared RTE_ATOMIC(T))"
fi
exit $fail
