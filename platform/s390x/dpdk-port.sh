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
#   dpdk-port.sh check <dpdk 25.11 tarball or tree>
#       status 0 if the series applies to that DPDK 25.11 (any patch
#       level: the one Debian serves changes) and patches/ (the series
#       committed for review and for proposing it) is the series made
#       now, up to what follows the patch level: the commit and blob ids
#       and the hunks' line numbers. A change of dpdk/, edits/ or series
#       without a new patches/ fails. Renew it with: dpdk-port.sh series
#       <that tarball> patches
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

# The files of DPDK the series needs: VERSION, those its edits change, and
# eal_export.h (whose presence picks the way symbols are exported).
base_files() {
	echo VERSION
	echo lib/eal/common/eal_export.h
	sed -n 's/^edit: //p' "$here/series" | while IFS= read -r e; do
		sed -n 's,^+++ b/\([^[:space:]]*\).*,\1,p' "$here/edits/$e"
	done
}

# A git repository of the files of base_files() from the DPDK source in $1
# (tarball or tree) at $2: only they are needed to make the patches, and
# the series is the same (blob ids, diffstat) as from the whole tree, in
# seconds. Fixed dates and names: the same port gives the same series,
# byte for byte (dpdk-port.sh check).
base_repo() {
	mkdir -p "$2"
	if [ -d "$1" ]; then
		for f in $(base_files); do
			[ -f "$1/$f" ] || continue
			mkdir -p "$2/$(dirname "$f")"
			cp "$1/$f" "$2/$f"
		done
	else
		set -f  # the patterns are tar's
		# shellcheck disable=SC2046
		tar -C "$2" --strip-components=1 -xf "$1" \
			--wildcards --no-wildcards-match-slash \
			$(base_files | sed 's,^,*/,') 2>/dev/null || true
		set +f
	fi
	[ -f "$2/VERSION" ] || die "$1 is not a DPDK source"
	git -C "$2" init -q
	git -C "$2" add -A
	git_fixed -C "$2" -c user.name=base -c user.email=base@localhost \
		commit -q -m "DPDK $(cat "$2/VERSION")"
}

git_fixed() {
	GIT_AUTHOR_DATE="2026-01-01T00:00:00Z" \
	GIT_COMMITTER_DATE="2026-01-01T00:00:00Z" git "$@"
}

# Adds one file of dpdk/ to the repository, adapted to its DPDK version:
# before 25.11 (no eal_export.h) without the export lines, and the arch
# headers as an arch's include/meson.build listed and installed them then
# (lib/eal/include/meson.build of 24.11 has no dpdk_arch_headers).
add_file() {
	src=$here/dpdk/$1
	dst=$repo/$1
	mkdir -p "$(dirname "$dst")"
	if [ -f "$repo/lib/eal/common/eal_export.h" ]; then
		cp "$src" "$dst"
	elif [ "${1##*/include/}" = meson.build ]; then
		sed 's/^dpdk_arch_headers += files($/arch_headers = files(/' \
			"$src" > "$dst"
		echo "install_headers(arch_headers," \
			"subdir: get_option('include_subdir_arch'))" >> "$dst"
	else
		sed '/^#include <eal_export.h>$/d; /^RTE_EXPORT_SYMBOL(/d' \
			"$src" > "$dst"
	fi
}

commit_patch() {
	[ -n "$subject" ] || return 0
	git -C "$repo" add -A
	printf '%s\n\n%s\n' "$subject" "$body" |
		git_fixed -C "$repo" -c user.name="dpdk-ism authors" \
			-c user.email="dpdk-ism@localhost" commit -q -s -F -
	subject=
	body=
}

series() {
	mkdir -p "$2"
	out=$(cd "$2" && pwd)
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
			patch -s -p1 --no-backup-if-mismatch -d "$repo" \
				< "$here/edits/${line#edit: }" ||
				die "edits/${line#edit: } does not apply"
			;;
		*)
			die "series: cannot read '$line'"
			;;
		esac
	done < "$here/series"
	commit_patch
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
		patch -s -p1 --no-backup-if-mismatch -d "$tree" < "$p" ||
			die "$(basename "$p") does not apply to $tree"
	done
	echo "dpdk-port: the s390x series applied to $tree"
}

# A patch without what depends on the patch level of its base: the
# commit and blob ids, the hunks' line numbers.
level_free() {
	sed -e 's/^From [0-9a-f]\{40\} /From <commit> /' \
		-e 's/^index [0-9a-f]*\.\.[0-9a-f]*/index <blobs>/' \
		-e 's/^@@ -[0-9,]* +[0-9,]* @@/@@ <lines> @@/' "$1"
}

check() {
	# series() removes $atmp at exit, as for apply().
	atmp=$(mktemp -d)
	series "$1" "$atmp/series" >/dev/null
	mkdir "$atmp/made" "$atmp/committed"
	for p in "$atmp"/series/*.patch; do
		level_free "$p" > "$atmp/made/${p##*/}"
	done
	for p in "$here"/patches/*.patch; do
		level_free "$p" > "$atmp/committed/${p##*/}"
	done
	(cd "$atmp" && diff -ru committed made) ||
		die "platform/s390x/patches is not the series of the port:" \
			"run $0 series $1 $here/patches"
	echo "dpdk-port: the series applies to DPDK $(cat "$repo/VERSION");" \
		"platform/s390x/patches is the series of the port"
}

case "${1:-}" in
check)
	[ $# = 2 ] || die "usage: $0 check <dpdk 25.11 tarball or tree>"
	check "$2"
	;;
series)
	[ $# = 3 ] || die "usage: $0 series <dpdk tarball or tree> <out dir>"
	series "$2" "$3"
	;;
apply)
	[ $# = 2 ] || die "usage: $0 apply <dpdk tree>"
	apply "$2"
	;;
*)
	die "usage: $0 series <dpdk tarball or tree> <out dir> |" \
		"apply <dpdk tree> | check <dpdk 25.11 tarball or tree>"
	;;
esac
