#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ism authors
#
# This tree as a patch series against the DPDK release, checked by DPDK's
# own devtools/checkpatches.sh as DPDK's maintainers run it on a series:
# the kernel's checkpatch.pl with DPDK's options and codespell, the
# symbol checks (check-symbol-change.py: RTE_EXPORT_*_SYMBOL of lib/ and
# drivers/; __rte_experimental and __rte_internal only in headers, alone
# on their line), the forbidden tokens, the alignment and packing
# attributes and the release-note rule.
#
#   devtools/check-dpdk-series.sh [-o DIR] [VERSION]   (default 25.11)
#   devtools/check-dpdk-series.sh -t [VERSION]
#       the selftest: a series of one planted patch, whose findings
#       (checkpatch.pl, a forbidden token, a file no MAINTAINERS section
#       lists) must each be reported; status 0 if they are
#
# The series: DPDK's release tarball (devtools/dpdk-version.sh) committed
# as the base of a scratch git repository, then one commit per component
# adding this tree's files at their paths in DPDK (the layout is DPDK's),
# and one adding what devtools/dpdk-intree.sh adds to DPDK's own files,
# formatted with git format-patch. -o DIR keeps the repository and the
# patches there. Outside the series, the compatibility headers of the
# out-of-tree build (config/*.h) are checked as one more patch.
#
# Prints each finding; status 1 if there is any, 77 (skipped, one line
# why) without the DPDK tarball or the kernel's checkpatch.pl.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
keep=
plant=
case ${1:-} in
-o) keep=$2; shift 2 ;;
-T) plant=1; shift ;;
-t)
	# The selftest: a series of one patch adding a file with a line too
	# long and a direct printf, in no MAINTAINERS section: checkpatch.pl,
	# the forbidden tokens and check-maintainers.sh must each say so.
	shift
	out=$("$0" -T "$@") && st=0 || st=$?
	echo "$out"
	[ "$st" != 77 ] || exit 77
	f=drivers/bus/ism_planted/planted.c
	miss=
	echo "$out" | grep -q "LONG_LINE.*" || miss="$miss LONG_LINE"
	echo "$out" | grep -q "^+++ b/$f$\|FILE: $f:" || miss="$miss $f"
	echo "$out" | grep -q "Writing to stdout or stderr" ||
		miss="$miss forbidden-printf"
	echo "$out" | grep -qx "file: $f" || miss="$miss unlisted-file"
	if [ "$st" != 1 ] || [ -n "$miss" ]; then
		echo "check-dpdk-series selftest: status $st, missed:$miss"
		exit 1
	fi
	echo "check-dpdk-series selftest: each planted finding reported"
	exit 0 ;;
esac
ver=${1:-25.11}
if ! tar=$("$top/devtools/dpdk-version.sh" tarball "$ver" 2>/dev/null); then
	echo "check-dpdk-series: no tarball of DPDK $ver: series not checked"
	exit 77
fi
if ! cp=$("$top/devtools/kernel-checkpatch.sh" path); then
	echo "check-dpdk-series: no checkpatch.pl: series not checked"
	exit 77
fi
if [ -n "$keep" ]; then
	rm -rf "$keep"
	mkdir -p "$keep"
	tmp=$(cd "$keep" && pwd)
else
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/ism-dpdk-series.XXXXXX")
	trap 'rm -rf "$tmp"' EXIT
fi
repo=$tmp/dpdk
mkdir -p "$repo"
tar -C "$repo" -xJf "$tar" --strip-components=1
echo "check-dpdk-series: $(basename "$tar" .tar.xz)," \
	"$(cat "$(dirname "$(dirname "$cp")")/ORIGIN")'s checkpatch.pl"

g() {
	git -C "$repo" -c user.name='dpdk-ism' -c user.email='dpdk-ism@invalid' \
		-c commit.gpgsign=false "$@"
}
g init -q
g add -A
g commit -q -m "DPDK $(cat "$repo/VERSION")"
base=$(g rev-parse HEAD)

# One component: its subject, a word for its description, then its paths
# in this tree (the same in DPDK's).
component() {
	subject=$1 title=$2
	shift 2
	(cd "$top" && git ls-files -z -- "$@" | xargs -0 cp --parents -t "$repo")
	g add -A
	g commit -q -m "$subject" -m "Add the $title of dpdk-ism." \
		-m "Signed-off-by: dpdk-ism <dpdk-ism@invalid>"
}
if [ -n "$plant" ]; then
	f=drivers/bus/ism_planted/planted.c
	mkdir -p "$repo/${f%/*}"
	{
		echo '/* SPDX-License-Identifier: BSD-3-Clause */'
		echo
		echo '#include <stdio.h>'
		echo
		echo 'void planted(void);'
		echo
		echo 'void'
		echo 'planted(void)'
		echo '{'
		printf '\tint n = 0%s;\n\n' "$(printf ' + 0%.0s' $(seq 30))"
		printf '\tprintf("%%d\\n", n);\n'
		echo '}'
	} > "$repo/$f"
	g add -A
	g commit -q -m 'bus/ism: add a planted finding' \
		-m 'A line too long, a printf, a file no section lists.' \
		-m "Signed-off-by: dpdk-ism <dpdk-ism@invalid>"
else
component 'bus/ism: add ISM PCI bus' 'ISM bus driver' drivers/bus/ism \
	doc/guides/bus/ism.rst
component 'ism: add ISM library' 'ISM library' lib/ism config/ism_compat.h \
	doc/guides/prog_guide/ism_lib.rst
component 'raw/ism: add ISM raw device driver' 'ISM raw driver' \
	drivers/raw/ism doc/guides/rawdevs doc/guides/platform/ibm_z.rst
component 'ism_ring: add packet ring over ISM' 'ISM ring library' \
	lib/ism_ring
component 'net/ism: add ISM network driver' 'ISM net driver' \
	drivers/net/ism doc/guides/nics
component 'app/test-ism: add ISM test application' 'ISM test application' \
	app/test-ism doc/guides/tools
component 'examples/ism_fwd: add ISM forwarding sample' \
	'ISM forwarding example' examples/ism_fwd doc/guides/sample_app_ug
[ ! -e "$top/app/test/test_ism.c" ] ||
	component 'test/ism: add ISM unit tests' 'ISM unit tests' \
		app/test/test_ism.c
# What devtools/dpdk-intree.sh adds to DPDK's own files (its patches: the
# build lists, MAINTAINERS, the guides' and API indexes; its files kept
# under devtools/dpdk-intree/: the bus index, the release note), and the
# maintainers in .mailmap (in name order, not strictly sorted: each
# before the first line that sorts after it).
data=$top/devtools/dpdk-intree
grep -v '^#' "$data/links" | while read -r dst src; do
	case $src in
	devtools/dpdk-intree/*) mkdir -p "$repo/$(dirname "$dst")"
		cp "$top/$src" "$repo/$dst" ;;
	esac
done
for p in "$data"/*.patch; do
	patch -s -d "$repo" -p1 < "$p"
done
# The optional ones, of the files the series has (as dpdk-intree.sh).
(cd "$data" && find optional -name '*.patch' | sort) | while read -r p; do
	f=${p#optional/}
	[ ! -e "$top/${f%.patch}" ] || patch -s -d "$repo" -p1 < "$data/$p"
done
sed -n 's/^+M: //p' "$data"/*.patch | sort -u > "$tmp/mailmap"
awk 'NR == FNR { add[++n] = $0; next }
     { while (i < n && tolower(add[i + 1]) < tolower($0))
		print add[++i]
       print }
     END { while (i < n) print add[++i] }' \
	"$tmp/mailmap" "$repo/.mailmap" > "$tmp/mailmap.new"
cp "$tmp/mailmap.new" "$repo/.mailmap"
g add -A
g commit -q -m 'doc: add ISM to the build lists, maintainers and indexes' \
	-m 'Add the ISM libraries and drivers to the lists of the build, their
maintainers, the release note and the guides and API indexes.' \
	-m "Signed-off-by: dpdk-ism <dpdk-ism@invalid>"
fi
head=$(g rev-parse HEAD)
g format-patch -q --no-stat -o "$tmp/patches" "$base..$head"

# DPDK's checks of its tree, at the end of the series, on what the series
# brings. check-maintainers.sh spawns processes for each line of
# MAINTAINERS (a quarter of an hour over DPDK's whole file on two busy
# cores): it reads here only the sections that can list a file the series
# adds (an F: or X: pattern whose part before any wildcard starts such a
# file's path) and the sections the series adds or changes. Its findings
# then: the files the series adds that no section lists, the sections the
# series adds or changes without a maintainer, their patterns matching no
# file, and any maintainer missing from .mailmap.
fail=0
g diff --name-only --diff-filter=A "$base" "$head" > "$tmp/added"
g show "$base:MAINTAINERS" > "$tmp/MAINTAINERS.base"
awk -v added="$tmp/added" -v base="$tmp/MAINTAINERS.base" \
    -v ours="$tmp/ours" '
	BEGIN {
		while ((getline l < added) > 0)
			file[++n] = l
		RS = ""
		while ((getline p < base) > 0)
			old[p] = 1
	}
	{
		keep = !($0 in old)
		m = split($0, line, "\n")
		for (i = 1; i <= m; i++) {
			if (keep && line[i] !~ /^[A-Z]: / &&
			    line[i] !~ /^-+$/)
				print "title\t" line[i] > ours
			if (line[i] !~ /^[FX]: /)
				continue
			pat = substr(line[i], 4)
			if (!($0 in old))
				print "pattern\t" pat > ours
			lit = pat
			sub(/[*?[].*/, "", lit)
			for (j = 1; j <= n && !keep; j++)
				if (index(file[j], lit) == 1)
					keep = 1
		}
		if (keep)
			printf "%s\n\n", $0
	}' "$repo/MAINTAINERS" > "$tmp/MAINTAINERS.kept"
cp "$tmp/MAINTAINERS.kept" "$repo/MAINTAINERS"
(cd "$repo" && sh devtools/check-maintainers.sh) > "$tmp/maintainers.out"
g checkout -q -- MAINTAINERS
out=$(awk -v ours="$tmp/ours" -v added="$tmp/added" '
	BEGIN {
		FS = "\t"
		while ((getline l < ours) > 0) {
			split(l, f, "\t")
			mine[f[1], f[2]] = 1
		}
		while ((getline l < added) > 0)
			mine["file", l] = 1
		FS = " "
	}
	/^# orphan areas/ { s = "title"; next }
	/^# files not listed/ { s = "file"; next }
	/^# wrong patterns/ { s = "pattern"; next }
	/^# wrong mailmap/ { s = "mailmap"; next }
	/^#*$/ || s == "" { next }
	{
		v = $0
		gsub(/^ +| +$/, "", v)
		if (s == "mailmap" || (s, v) in mine)
			print s ": " v
	}' "$tmp/maintainers.out")
[ -z "$out" ] || { echo "check-maintainers.sh:"; echo "$out"; fail=1; }
# check-doc-vs-code.sh: the rte_flow items of the net drivers the series
# adds against their features/*.ini.
out=$(cd "$repo" && sh devtools/check-doc-vs-code.sh "$base" 2>&1) ||
	{ echo "check-doc-vs-code.sh:"; echo "$out"; fail=1; }

# The out-of-tree compatibility headers, as one patch outside the series.
if [ -z "$plant" ]; then
	g checkout -q --detach "$base"
	(cd "$top" && git ls-files -z -- 'config/*.h' ':!config/ism_compat.h' |
		xargs -0 cp --parents -t "$repo")
	g add -A
	g commit -q -m 'config: add out-of-tree compatibility headers' \
		-m 'The headers the out-of-tree build of dpdk-ism needs.' \
		-m "Signed-off-by: dpdk-ism <dpdk-ism@invalid>"
	g format-patch -q --no-stat -o "$tmp/extra" -1
fi

# DPDK's checkpatches.sh reads VERSION from its working directory; no
# developer configuration of this machine (load-devel-config) applies.
# Not applicable: CAMELCASE, which checkpatch.pl checks in drivers/net/
# only (its strict mode there) and reports for C99's PRIu64 & co.
options=--ignore=CAMELCASE
echo "check-dpdk-series: not applicable: CAMELCASE (checkpatch.pl's" \
	"strict mode of drivers/net takes C99's PRIu64 for CamelCase)"
# The release note is the next release's (26.03): checkpatches.sh takes
# the current one from VERSION, the release's own (25.11.2) in the base.
cd "$repo"
echo 26.03.0-rc0 > VERSION
# One checkpatches.sh per patch, as many at once as there are CPUs
# (checkpatch.pl takes minutes over the driver's patch alone).
mkdir -p "$tmp/report"
t0=$(date +%s)
ls "$tmp"/patches/*.patch "$tmp"/extra/*.patch 2>/dev/null |
	HOME=$tmp DPDK_CHECKPATCH_PATH=$cp \
	DPDK_CHECKPATCH_CODESPELL=$(dirname "$(dirname "$cp")")/dictionary.txt \
	DPDK_CHECKPATCH_LINE_LENGTH=100 DPDK_CHECKPATCH_OPTIONS=$options \
	xargs -P "$(nproc)" -I{} sh -c '
		out=$2/$(basename "$(dirname "$1")")-$(basename "$1" .patch)
		sh devtools/checkpatches.sh -q "$1" > "$out" 2>&1 ||
			touch "$out.failed"' sh {} "$tmp/report"
for r in "$tmp"/report/*; do
	case $r in *.failed) continue ;; esac
	[ ! -e "$r.failed" ] || { cat "$r"; fail=1; }
done
echo "check-dpdk-series: checkpatches.sh over" \
	"$(ls "$tmp"/report | grep -vc '\.failed$') patches in" \
	"$(($(date +%s) - t0)) s"
[ $fail = 1 ] || echo "check-dpdk-series: checkpatches.sh," \
	"check-maintainers.sh, check-doc-vs-code.sh: no finding"
exit $fail
