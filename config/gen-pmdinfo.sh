#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ism authors
#
# The C file of a driver's PMD info strings: DPDK's pmdinfogen.py over the
# objects of the driver's archive. Meson's archives of objects that are not
# installed are thin: their members are the object files themselves (paths
# from the build directory, where this runs); others are extracted into a
# scratch directory.
#   gen-pmdinfo.sh <ar> <scratch dir> <archive> <output> <pmdinfogen command...>
set -eu
ar=$1
dir=$2
archive=$3
out=$4
shift 4
objs=$("$ar" t "$archive")
rm -rf "$dir"
mkdir -p "$dir"
set --  "$@"
for o in $objs; do
	if [ ! -f "$o" ]; then
		(cd "$dir" && "$ar" x "$OLDPWD/$archive" "$o")
		o=$dir/$o
	fi
	set -- "$@" "$o"
done
"$@" "$out"
rm -rf "$dir"
