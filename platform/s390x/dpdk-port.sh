#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ism authors
#
# The s390x (IBM Z) port of DPDK kept in this folder: dpdk/ holds the files
# it adds, mirroring DPDK's tree; edits/ the diffs it makes to DPDK's own
# files; the file series orders both into patches.
#
#   dpdk-port.sh series <dpdk tarball or tree> <out dir>
#       the patch series (git format-patch) against that DPDK, in <out dir>
#   dpdk-port.sh apply <dpdk tree>
#       applies the series to an unpacked DPDK tree (patch -p1)
#
# DPDK 25.11 exports symbols with RTE_EXPORT_SYMBOL (eal_export.h); older
# versions list them in lib/eal/version.map (which has the EAL's arch
# functions already): for those, the series is made without the export
# lines.
set -eu

here=$(cd "$(dirname "$0")" && pwd)

die() {
	echo "dpdk-port: $*" >&2
	exit 1
}

# A git repository of the DPDK source in $1 (tarball or tree) at $2.
base_repo() {
	if [ -d "$1" ]; then
		mkdir -p "$2"
		(cd "$1" && tar -cf - --exclude=./.git --exclude=./build .) |
			tar -C "$2" -xf -
	else
		mkdir -p "$2"
		tar -C "$2" --strip-components=1 -xf "$1"
	fi
	[ -f "$2/VERSION" ] || die "$1 is not a DPDK source"
	git -C "$2" init -q
	git -C "$2" add -A
	git -C "$2" -c user.name=base -c user.email=base@localhost \
		commit -q -m "DPDK $(cat "$2/VERSION")"
}

# Adds one file of dpdk/ to the repository, adapted to its DPDK version.
add_file() {
	src=$here/dpdk/$1
	dst=$repo/$1
	mkdir -p "$(dirname "$dst")"
	if [ -f "$repo/lib/eal/common/eal_export.h" ]; then
		cp "$src" "$dst"
	else
		sed '/^#include <eal_export.h>$/d; /^RTE_EXPORT_SYMBOL(/d' \
			"$src" > "$dst"
	fi
}

commit_patch() {
	[ -n "$subject" ] || return 0
	git -C "$repo" add -A
	printf '%s\n\n%s\n' "$subject" "$body" |
		git -C "$repo" -c user.name="dpdk-ism authors" \
			-c user.email="dpdk-ism@localhost" commit -q -s -F -
	subject=
	body=
}

series() {
	out=$2
	stmp=$(mktemp -d)
	trap 'rm -rf "$stmp" ${atmp:+"$atmp"}' EXIT
	repo=$stmp/dpdk
	base_repo "$1" "$repo"
	subject=
	body=
	while IFS= read -r line; do
		case "$line" in
		"#"*|"")
			commit_patch
			;;
		"subject: "*)
			subject=${line#subject: }
			;;
		"body: "*)
			body="$body${body:+
}${line#body: }"
			;;
		"add: "*)
			p=${line#add: }
			[ -e "$here/dpdk/$p" ] || die "series: no dpdk/$p"
			for f in $(cd "$here/dpdk" && find "$p" -type f | sort); do
				add_file "$f"
			done
			;;
		"edit: "*)
			patch -s -p1 -d "$repo" < "$here/edits/${line#edit: }" ||
				die "edits/${line#edit: } does not apply"
			;;
		*)
			die "series: cannot read '$line'"
			;;
		esac
	done < "$here/series"
	commit_patch
	mkdir -p "$out"
	rm -f "$out"/*.patch
	git -C "$repo" format-patch -q --no-signature -o "$out" HEAD~"$(
		grep -c '^subject: ' "$here/series")"
	ls "$out"/*.patch
}

apply() {
	tree=$1
	[ -f "$tree/VERSION" ] || die "$tree is not a DPDK source tree"
	atmp=$(mktemp -d)
	series "$tree" "$atmp/series" >/dev/null
	for p in "$atmp"/series/*.patch; do
		patch -s -p1 -d "$tree" < "$p" ||
			die "$(basename "$p") does not apply to $tree"
	done
	echo "dpdk-port: the s390x series applied to $tree"
}

case "${1:-}" in
series)
	[ $# = 3 ] || die "usage: $0 series <dpdk tarball or tree> <out dir>"
	series "$2" "$3"
	;;
apply)
	[ $# = 2 ] || die "usage: $0 apply <dpdk tree>"
	apply "$2"
	;;
*)
	die "usage: $0 series <dpdk tarball or tree> <out dir> | apply <dpdk tree>"
	;;
esac
