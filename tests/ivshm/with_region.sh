#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ism authors
#
# with_region.sh CMD ARGS...: run CMD with every "@REGION@" in ARGS replaced
# by the path of a region file in a fresh private directory (mktemp -d),
# which the ivshmem backend creates (devarg size=); remove it afterwards.
# The file stands for the /dev/shm file QEMU's ivshmem memory is made of.
set -u
dir=$(mktemp -d "${TMPDIR:-/tmp}/ism-ivshm-XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT INT TERM
cmd=$1
shift
for a in "$@"; do
	case $a in
	*@REGION@*) a=$(printf '%s' "$a" | sed "s|@REGION@|$dir/region|g") ;;
	esac
	set -- "$@" "$a"
	shift
done
"$cmd" "$@"
