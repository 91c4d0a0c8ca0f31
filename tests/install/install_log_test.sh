#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ism authors
#
# The install tests leave the build's meson-logs/install-log.txt as they
# found it (ninja uninstall reads it to remove the user's own install):
# a planted log comes out unchanged, and no log stays none.
#   install_log_test.sh <build dir> <tests/install dir> <tag>
#                       <test_assert.h dir> <rte_test.h dir>
set -eu
build=$(cd "$1" && pwd)
here=$2
tag=$3
log=$build/meson-logs/install-log.txt
scratch=$(mktemp -d /var/lib/dpdk-ism-log-test.XXXXXX)
[ ! -f "$log" ] || cp -p "$log" "$scratch/user.log"
trap 'if [ -f "$scratch/user.log" ]; then mv -f "$scratch/user.log" "$log"
	else rm -f "$log"; fi; rm -rf "$scratch"' EXIT

run_all() {
	"$here/install_check.sh" programs "$build" "$here" "$tag" \
		> "$scratch/out" 2>&1 &&
	"$here/install_test.sh" "$build" "$here" "$4" "$5" \
		>> "$scratch/out" 2>&1 || {
		cat "$scratch/out"
		echo "FAIL: an install test failed"
		exit 1
	}
}

echo "# the user's install, planted by $0 ($$)" > "$log"
cp "$log" "$scratch/planted"
run_all "$@"
cmp -s "$log" "$scratch/planted" || {
	echo "FAIL: install-log.txt changed by the install tests:"
	head -n 3 "$log"
	exit 1
}
rm -f "$log"
run_all "$@"
[ ! -e "$log" ] || {
	echo "FAIL: the install tests left an install-log.txt where there" \
		"was none"
	exit 1
}
echo "PASS"
