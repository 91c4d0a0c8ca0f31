#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ism authors
#
# devtools/dpdk-version.sh's sources, in a cache of the test's own:
#  - Debian's source package of a release series fetched with the cache's
#    own apt configuration, checked and kept as the release tarball with
#    its origin (22.11 from Debian 12: the one series whose source this
#    machine's release serves too; 24.11 and 25.11 take the same path
#    from trixie and sid), then found again without a fetch;
#  - with no fetch, the fallback tarballs, said so on stderr;
#  - with neither, a message naming what is missing, status 1 (tarball)
#    or 3 (prefix: make test then skips that DPDK's suites).
# Needs Debian's package registry (as make test's DPDK builds do).
#   dpdk_source_test.sh <source root> <scratch dir>
set -eu
dv=$1/devtools/dpdk-version.sh
work=$2
rm -rf "$work"
mkdir -p "$work/cache" "$work/fallback" "$work/empty"
export DPDK_CACHE="$work/cache"
unset DPDK_SRC DPDK_NO_FETCH
fail() {
	echo "FAIL: $*"
	exit 1
}

echo "== fetch of 22.11 from Debian 12"
t=$("$dv" tarball 22.11 2>"$work/err") || {
	cat "$work/err"
	fail "no 22.11 fetched"
}
cat "$work/err"
case "$t" in
"$DPDK_CACHE"/src/dpdk-22.11.*.tar.xz) ;;
*) fail "the tarball is $t, not in $DPDK_CACHE/src" ;;
esac
full=$(basename "$t" .tar.xz)
full=${full#dpdk-}
[ "$(tar -xOJf "$t" --wildcards '*/VERSION')" = "$full" ] ||
	fail "$t does not hold DPDK $full"
grep -q "^Debian's source package dpdk $full-.* (bookworm)\$" \
	"$DPDK_CACHE/src/dpdk-$full.origin" || fail "no origin recorded"
grep -q "fetched and checked" "$work/err" || fail "no word of the check"
grep -q '^deb-src .* bookworm main$' \
	"$DPDK_CACHE/debian/bookworm/sources.list" ||
	fail "no sources list of the cache's own"
[ -z "$(find /etc/apt -newer "$work/err" -name '*dpdk-ism*')" ] ||
	fail "the machine's apt sources were changed"

echo "== found again, no fetch"
[ "$(DPDK_NO_FETCH=1 "$dv" tarball 22.11 2>"$work/err")" = "$t" ] ||
	fail "not found again"
[ ! -s "$work/err" ] || fail "unexpected words: $(cat "$work/err")"

echo "== fallback"
: > "$work/fallback/dpdk-25.11.9.tar.xz"
t=$(DPDK_NO_FETCH=1 DPDK_FALLBACK_SRC="$work/fallback" "$dv" tarball 25.11 \
	2>"$work/err") || fail "the fallback is not taken"
[ "$t" = "$work/fallback/dpdk-25.11.9.tar.xz" ] || fail "fallback $t"
grep -q "from the fallback tarball" "$work/err" || fail "the fallback is not said"

echo "== nothing"
if DPDK_NO_FETCH=1 DPDK_FALLBACK_SRC="$work/empty" "$dv" tarball 24.11 \
	2>"$work/err"; then
	fail "a tarball of 24.11 out of nothing"
fi
cat "$work/err"
grep -q "no source of DPDK 24.11" "$work/err" || fail "what is missing is not said"
grep -q "DPDK_SRC" "$work/err" || fail "the override is not named"
# make test tells this from a failed build by the status: 3, not 1.
rc=0
DPDK_NO_FETCH=1 DPDK_FALLBACK_SRC="$work/empty" "$dv" prefix 24.11 \
	>/dev/null 2>"$work/err" || rc=$?
[ "$rc" = 3 ] || fail "prefix without a source: status $rc, not 3"
rm -rf "$work"
echo "PASS"
