#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ism authors
#
# The Linux kernel's checkpatch.pl, which DPDK's devtools/checkpatches.sh
# runs (DPDK_CHECKPATCH_PATH), and codespell's dictionary, which it uses
# (--codespell), both taken from Debian's packages once per machine into
# a cache outside the tree.
#
#   kernel-checkpatch.sh path    fetch if needed, print the path of
#                                checkpatch.pl (spelling.txt and
#                                const_structs.checkpatch beside it,
#                                codespell/dictionary.txt in its directory)
#
# Where checkpatch.pl comes from, first found (KERNEL_CHECKPATCH_SOURCES,
# "suite:package" words, in order; default sid's linux-source-7.2, then
# Debian 12's linux-source-6.1):
#  - the unpacked sid source devtools/linux-s390x-sid.sh keeps
#    ($CACHE/linux-source-<x.y>), or its downloaded linux-source .deb;
#  - apt-get download of the package with an apt configuration of the
#    cache's own ($CACHE/debian-bin/<suite>: its sources list, lists and
#    package cache; the machine's apt state untouched, nothing installed;
#    apt checks the file against the suite's signed index); only the
#    three files are kept.
# codespell's dictionary: the codespell package of Debian 12 the same way.
# Status 1 with one line saying what is missing when none can be had.
#
# DPDK_CACHE  the cache (default /var/cache/dpdk-ism for root, else
#             ~/.cache/dpdk-ism)
set -eu

if [ "$(id -u)" = 0 ]; then
	CACHE=${DPDK_CACHE:-/var/cache/dpdk-ism}
else
	CACHE=${DPDK_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/dpdk-ism}
fi
SOURCES=${KERNEL_CHECKPATCH_SOURCES:-sid:linux-source-7.2 bookworm:linux-source-6.1}
DICT_SOURCE=bookworm:codespell
OUT=$CACHE/checkpatch
FILES="scripts/checkpatch.pl scripts/spelling.txt scripts/const_structs.checkpatch"

[ "${1:-}" = path ] || {
	echo "usage: $0 path" >&2
	exit 2
}

# The mirror of the machine's Debian entry (as devtools/dpdk-version.sh).
mirror() {
	uri=$(sed -n 's/^URIs:[[:space:]]*\([^[:space:]]*\/debian\/\?\)$/\1/p' \
		/etc/apt/sources.list.d/*.sources 2>/dev/null | head -n 1)
	if [ -z "$uri" ] && [ -f /etc/apt/sources.list ]; then
		uri=$(sed -n 's,^deb \(\[[^]]*\] \)\?\([^ ]*/debian/\?\) .*,\2,p' \
			/etc/apt/sources.list | head -n 1)
	fi
	echo "${uri:-http://deb.debian.org/debian}"
}

# apt-get download of package $2 of suite $1 into directory $3.
download() {
	ad=$CACHE/debian-bin/$1
	mkdir -p "$ad/lists/partial" "$ad/cache/archives/partial" "$ad/empty"
	: > "$ad/preferences"
	echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg]" \
		"$(mirror) $1 main" > "$ad/sources.list"
	set -- "$1" "$2" "$3" -o Dir::Etc::SourceList="$ad/sources.list" \
		-o Dir::Etc::SourceParts="$ad/empty" \
		-o Dir::Etc::Preferences="$ad/preferences" \
		-o Dir::Etc::PreferencesParts="$ad/empty" \
		-o Dir::State::Lists="$ad/lists" \
		-o Dir::Cache="$ad/cache" -o APT::Sandbox::User=root \
		-o Acquire::Languages=none
	a=$1 p=$2 d=$3
	shift 3
	if [ ! -f "$ad/.updated" ]; then
		apt-get "$@" update -qq >"$ad/update.log" 2>&1 || return 1
		touch "$ad/.updated"
	fi
	mkdir -p "$d"
	(cd "$d" && apt-get "$@" download -qq "$p") >"$ad/download.log" 2>&1 ||
		{ echo "kernel-checkpatch: apt-get download $p ($a) failed" >&2;
		  return 1; }
}

# The three files of linux-source package $2 (suite $1) into $3.
from_source() {
	suite=$1 pkg=$2 dst=$3
	ver=${pkg#linux-source-}
	tmp=$dst.tmp
	rm -rf "$tmp"
	mkdir -p "$tmp/scripts"
	if [ -f "$CACHE/linux-source-$ver/scripts/checkpatch.pl" ]; then
		for f in $FILES; do
			cp "$CACHE/linux-source-$ver/$f" "$tmp/$f"
		done
	else
		deb=$(ls "$CACHE"/linux-sid-dl-*/"${pkg}"_*.deb \
			"$CACHE/debian-bin/$suite/dl/${pkg}"_*.deb 2>/dev/null |
			head -n 1 || true)
		if [ -z "$deb" ]; then
			echo "kernel-checkpatch: fetching $pkg from Debian" \
				"$suite (about 140 MB, once per machine)" >&2
			download "$suite" "$pkg" "$CACHE/debian-bin/$suite/dl" ||
				return 1
			deb=$(ls "$CACHE/debian-bin/$suite/dl/${pkg}"_*.deb |
				head -n 1)
		fi
		# Only the three files, streamed out of the source tarball.
		set --
		for f in $FILES; do
			set -- "$@" "--wildcards" "*/$f"
		done
		dpkg-deb --fsys-tarfile "$deb" |
			tar -xO "./usr/src/$pkg.tar.xz" | xz -dc |
			tar -x -C "$tmp" --strip-components=1 "$@" || return 1
	fi
	echo "$pkg ($suite)" > "$tmp/ORIGIN"
	rm -rf "$dst"
	mv "$tmp" "$dst"
}

dict() {
	[ -f "$OUT/codespell/dictionary.txt" ] && return 0
	d=$CACHE/debian-bin/${DICT_SOURCE%%:*}/dl-codespell
	rm -rf "$d"
	download "${DICT_SOURCE%%:*}" "${DICT_SOURCE#*:}" "$d" || return 1
	dpkg-deb -x "$d"/codespell_*.deb "$d/root"
	f=$(find "$d/root" -name dictionary.txt | head -n 1)
	[ -n "$f" ] || return 1
	mkdir -p "$OUT/codespell"
	cp "$f" "$OUT/codespell/dictionary.txt"
	rm -rf "$d"
}

mkdir -p "$OUT"
exec 9>"$OUT/.lock"
flock 9
found=
for s in $SOURCES; do
	dst=$OUT/${s#*:}
	if [ ! -x "$dst/scripts/checkpatch.pl" ]; then
		from_source "${s%%:*}" "${s#*:}" "$dst" || continue
	fi
	found=$dst
	break
done
if [ -z "$found" ]; then
	echo "kernel-checkpatch: none of $SOURCES could be had from Debian"
	exit 1
fi
if ! dict; then
	echo "kernel-checkpatch: codespell's dictionary ($DICT_SOURCE) could" \
		"not be had from Debian"
	exit 1
fi
cp "$OUT/codespell/dictionary.txt" "$found/dictionary.txt"
echo "$found/scripts/checkpatch.pl"
