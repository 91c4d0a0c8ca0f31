#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ism authors
#
# with_tmpdir.sh CMD ARGS...: run CMD with every "@TMPDIR@" in ARGS replaced
# by a fresh private directory (mktemp -d: mode 0700), then check that the
# command left nothing in it and remove it.
set -u
dir=$(mktemp -d "${TMPDIR:-/tmp}/ism-shm-XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT INT TERM
cmd=$1
shift
for a in "$@"; do
	case $a in
	*@TMPDIR@*) a=$(printf '%s' "$a" | sed "s|@TMPDIR@|$dir|g") ;;
	esac
	set -- "$@" "$a"
	shift
done
"$cmd" "$@"
rc=$?
left=$(ls -A "$dir")
if [ -n "$left" ]; then
	echo "FAIL: left in $dir: $left"
	[ $rc -eq 0 ] && rc=1
fi
exit $rc
