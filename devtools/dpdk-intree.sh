#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ism authors
#
# This tree inside DPDK's own source tree, as DPDK would carry it: a fresh
# DPDK 25.11.2 source (devtools/dpdk-version.sh tarball) with this tree's
# libraries, drivers, programs and guides linked in (symbolic links: the
# files are this tree's own, never copied nor edited) and what DPDK needs
# to know of them added to DPDK's files; then DPDK built with them.
#
#   dpdk-intree.sh tree <dir>
#       lays the tree out in <dir>: removed first when it holds an earlier
#       one of this script (marker file .dpdk-intree), refused when it is
#       another non-empty directory. Status 3, saying why on stderr, when
#       no DPDK 25.11.2 source is to be had (as dpdk-version.sh prefix).
#   dpdk-intree.sh build <dir> <gcc|clang> [<build dir>]
#       tree <dir> unless <dir> holds the current layout already, then
#       DPDK's meson setup and ninja in <build dir> (default
#       <dir>/build-<compiler>; reconfigured when it exists): werror,
#       check_includes, clang with enable_stdatomic; only the libraries
#       and drivers this tree needs besides DPDK's always-enabled ones
#       (enable_libs, enable_drivers), the program dpdk-test-ism
#       (enable_apps) and the sample dpdk-ism_fwd (examples); DPDK's
#       dpdk-test too (-Dtests=true: meson test --suite fast-tests runs
#       ism_autotest) when app/test/test_ism.c is in this tree. Status 3
#       as tree.
#   dpdk-intree.sh check <gcc|clang> <work dir>
#       build <work dir>/src <compiler> <work dir>/build-<compiler>, for
#       meson test (suite intree): status 77 (meson's skip), with a line
#       saying why, when no DPDK 25.11.2 source or no such compiler is to
#       be had; the log of the build in <work dir>/build-<compiler>.log,
#       its tail on failure; on success, the build's wall and processor
#       time. With app/test/test_ism.c, then runs
#       ism_autotest as DPDK's runner does: meson test --suite fast-tests
#       ism_autotest in that build.
#
# What is added to DPDK lives in devtools/dpdk-intree/ as data:
#   links        the links: <path in DPDK's tree> <path in this tree>
#   *.patch      unified diffs against DPDK 25.11.2 (patch -p1), applied
#                in name order: the library and driver lists, MAINTAINERS,
#                the release note, the guides' indexes, the API index
#   optional/<path in this tree>.patch
#                applied (and <path> linked to the same path in DPDK's
#                tree) only when this tree has <path>: app/test/test_ism.c
#                (ism_autotest: its place in app/test/meson.build and
#                MAINTAINERS)
# Checks of DPDK's tools (devtools/check-*.sh, checkpatches.sh) run in
# <dir> after tree: its files are DPDK's plus the links.
#
# DPDK_INTREE_VERSION  the DPDK release (default 25.11.2) whose source is
#                      used; the patches are made against 25.11.2.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
data=$top/devtools/dpdk-intree
version=${DPDK_INTREE_VERSION:-25.11.2}
marker=.dpdk-intree

usage() {
	sed -n '/^#   dpdk-intree.sh/,/^# What is added/p' "$0" >&2
	exit 2
}

# What a layout is made of: the tarball, the data files, which optional
# files this tree has. A layout whose marker says the same is reused.
recipe() {
	echo "$1"
	(cd "$data" && find . -type f | sort | xargs sha256sum)
	(cd "$data" && find optional -name '*.patch' 2>/dev/null | sort) |
		while read -r p; do
			f=${p#optional/}
			f=${f%.patch}
			[ ! -e "$top/$f" ] || echo "with $f"
		done
}

# The link of one file or folder of this tree into DPDK's tree.
link() {
	[ ! -e "$2/$1" ] || [ -L "$2/$1" ] ||
		{ echo "dpdk-intree: $1 is DPDK's own in $2" >&2; exit 1; }
	mkdir -p "$(dirname "$2/$1")"
	ln -sfn "$top/$3" "$2/$1"
}

# The release tarball, or status 3 saying why there is none.
tarball() {
	"$top/devtools/dpdk-version.sh" tarball "$version" || {
		echo "dpdk-intree: no source of DPDK $version (above)" >&2
		exit 3
	}
}

# tree <dir> <tarball>
tree() {
	dir=$1
	tar=$2
	if [ -e "$dir" ] && [ ! -e "$dir/$marker" ] &&
	   [ -n "$(ls -A "$dir" 2>/dev/null)" ]; then
		echo "dpdk-intree: $dir is not empty and not one of" \
			"dpdk-intree.sh's trees: not touched" >&2
		exit 1
	fi
	rm -rf "$dir"
	mkdir -p "$dir"
	tar -C "$dir" --strip-components=1 -xf "$tar"
	[ "$(cat "$dir/VERSION")" = "$version" ] ||
		{ echo "dpdk-intree: $tar is not DPDK $version" >&2; exit 1; }
	grep -v '^#' "$data/links" | while read -r in_dpdk ours; do
		[ -n "$in_dpdk" ] || continue
		[ -e "$top/$ours" ] || continue
		link "$in_dpdk" "$dir" "$ours"
	done
	for p in "$data"/*.patch; do
		patch -d "$dir" -p1 -s --no-backup-if-mismatch < "$p" ||
			{ echo "dpdk-intree: $p does not apply" >&2; exit 1; }
	done
	(cd "$data" && find optional -name '*.patch' 2>/dev/null | sort) |
		while read -r p; do
			f=${p#optional/}
			f=${f%.patch}
			[ -e "$top/$f" ] || continue
			link "$f" "$dir" "$f"
			patch -d "$dir" -p1 -s --no-backup-if-mismatch \
				< "$data/$p" ||
				{ echo "dpdk-intree: $p does not apply" >&2; exit 1; }
		done
	recipe "$tar" > "$dir/$marker"
}

# tree <dir>, unless it holds the current layout (an earlier build's
# objects then stay valid: only what changed is rebuilt).
tree_current() {
	tar=$(tarball) || exit 3
	if [ -f "$1/$marker" ] &&
	   [ "$(recipe "$tar")" = "$(cat "$1/$marker")" ]; then
		return 0
	fi
	tree "$1" "$tar"
}

build() {
	dir=$1
	compiler=$2
	bdir=${3:-$dir/build-$compiler}
	case "$compiler" in
	gcc) cc=gcc cxx=g++ extra= ;;
	clang) cc=clang cxx=clang++ extra=-Denable_stdatomic=true ;;
	*) usage ;;
	esac
	mkdir -p "$(dirname "$dir")"
	# Two builds (gcc, clang) of one layout at once: one lays it out.
	exec 9>"$dir.lock"
	flock 9
	tree_current "$dir"
	flock -u 9
	tests=false
	apps=test-ism
	if [ -e "$top/app/test/test_ism.c" ]; then
		tests=true
		apps=$apps,test
	fi
	# What the tree needs besides DPDK's always-enabled libraries and
	# drivers (lib/meson.build, drivers/meson.build: always_enable).
	libs=rawdev,ism,ism_ring
	drivers=bus/ism,raw/ism,net/ism
	opts="-Dplatform=generic -Dwerror=true -Dcheck_includes=true $extra
-Denable_libs=$libs -Denable_drivers=$drivers -Denable_apps=$apps
-Dtests=$tests -Dexamples=ism_fwd -Denable_docs=false"
	# Debian's python3 (pyelftools for pmdinfogen) ahead of any other.
	if [ -f "$bdir/build.ninja" ]; then
		# shellcheck disable=SC2086
		(cd "$dir" && PATH=/usr/bin:$PATH meson configure "$bdir" $opts)
	else
		rm -rf "$bdir"
		# shellcheck disable=SC2086
		(cd "$dir" && PATH=/usr/bin:$PATH CC=$cc CXX=$cxx \
			meson setup "$bdir" $opts)
	fi
	PATH=/usr/bin:$PATH ninja -C "$bdir"
}

check() {
	compiler=$1
	work=$2
	case "$compiler" in
	gcc) cxx=g++ ;;
	clang) cxx=clang++ ;;
	*) usage ;;
	esac
	for c in "$compiler" "$cxx"; do
		command -v "$c" >/dev/null || {
			echo "SKIP: no $c (devtools/setup.sh installs it)"
			exit 77
		}
	done
	mkdir -p "$work"
	log=$work/build-$compiler.log
	t0=$(date +%s)
	set +e
	(build "$work/src" "$compiler" "$work/build-$compiler") >"$log" 2>&1
	rc=$?
	set -e
	if [ $rc = 3 ]; then
		why=$(grep -m 1 '^dpdk-version: no ' "$log" ||
			echo "no source of DPDK $version")
		# Under make test, Debian's source is fetched (or found
		# missing) once, by the target dpdk-versions.
		[ -z "${DPDK_NO_FETCH:-}" ] ||
			why="$why (Debian's is fetched by make dpdk-versions)"
		echo "SKIP: $why"
		exit 77
	fi
	if [ $rc != 0 ]; then
		tail -n 60 "$log"
		echo "dpdk-intree: DPDK $version with this tree, $compiler:" \
			"failed (log: $log)"
		exit 1
	fi
	# The processor time too (user, system of the build's processes):
	# what the build costs a machine that does nothing else.
	# (times itself, not in a pipe nor a $(): a forked shell's
	# children's times start at zero.)
	times > "$work/times-$compiler"
	cpu=$(sed -n 2p "$work/times-$compiler")
	echo "dpdk-intree: DPDK $version with this tree built with" \
		"$compiler in $(($(date +%s) - t0)) s, processor time $cpu" \
		"($(grep -c 'Compiling\|Linking' "$log") steps run; log: $log)"
	# ism_autotest, as DPDK's test runner runs it (fast-tests).
	if [ -e "$top/app/test/test_ism.c" ]; then
		PATH=/usr/bin:$PATH meson test -C "$work/build-$compiler" \
			--no-rebuild --print-errorlogs --suite fast-tests \
			ism_autotest
	fi
}

[ $# -ge 1 ] || usage
cmd=$1
shift
case "$cmd" in
tree) [ $# = 1 ] || usage; tar=$(tarball) || exit 3; tree "$1" "$tar" ;;
build) [ $# -ge 2 ] && [ $# -le 3 ] || usage; build "$@" ;;
check) [ $# = 2 ] || usage; check "$@" ;;
*) usage ;;
esac
