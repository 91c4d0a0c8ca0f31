#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ism authors
#
# A DPDK version other than the installed one (22.11, Debian's), built
# once per machine from a release tarball into a cache outside the tree,
# for building and testing dpdk-ism against it.
#
#   dpdk-version.sh list           the versions with a tarball in $DPDK_SRC
#   dpdk-version.sh prefix <ver>   build <ver> if needed (24.11, 25.11 or a
#                                  full 25.11.2), print its install prefix;
#                                  <ver>-s390x (25.11-s390x, 24.11-s390x):
#                                  that DPDK with the s390x port of
#                                  platform/s390x applied, cross-built for
#                                  IBM Z (devtools/setup.sh s390x first)
#   dpdk-version.sh dpdk-test <ver>
#                                  the same as prefix, then builds DPDK's
#                                  unit-test program dpdk-test once, in a
#                                  build dir of its own next to the install
#                                  (test-<full version>; the install is
#                                  untouched), and prints that build dir
#                                  (app/dpdk-test, drivers/)
#   dpdk-version.sh tarball <ver>  the tarball of <ver> (else status 1)
#   dpdk-version.sh find <ver>     the install prefix of <ver> if it is
#                                  built already (else status 1): no build
#   dpdk-version.sh env <ver>      the same as prefix, then shell assignments:
#                                  DPDK_PREFIX, DPDK_PKG_CONFIG_PATH,
#                                  DPDK_LIBDIR, DPDK_SOURCE (the source
#                                  tree: -Ddpdk_sdk, for pmdinfogen)
#
# DPDK_SRC    tarballs dpdk-<full version>.tar.xz (default ../shared/dpdk-src
#             next to this tree, or to the main tree of a git worktree)
# DPDK_CACHE  the cache (default /var/cache/dpdk-ism for root, else
#             ~/.cache/dpdk-ism). Not under a world-writable directory such
#             as /tmp or /var/tmp: EAL refuses to load the plugins of its
#             own plugin directory there ("world-writable and insecure").
#
# The build is DPDK's README recipe (doc/guides/linux_gsg/build.rst): the
# drivers and the testpmd the tests use, the driver SDK installed. About 2
# minutes on 2 idle cores; a lock keeps two runs from building the same
# version at once, and a finished build is reused while its recipe is the
# same.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
# ../shared/dpdk-src next to the tree, or next to the main work tree of a
# git worktree.
if [ -z "${DPDK_SRC:-}" ]; then
	DPDK_SRC=$top/../shared/dpdk-src
	common=$(git -C "$top" rev-parse --path-format=absolute \
		--git-common-dir 2>/dev/null || true)
	if [ ! -d "$DPDK_SRC" ] && [ -n "$common" ]; then
		DPDK_SRC=$(dirname "$common")/../shared/dpdk-src
	fi
fi
if [ "$(id -u)" = 0 ]; then
	DPDK_CACHE=${DPDK_CACHE:-/var/cache/dpdk-ism}
else
	DPDK_CACHE=${DPDK_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/dpdk-ism}
fi

# The recipe; a change rebuilds. default_library=shared: DPDK's default
# (static) links dpdk-testpmd statically, and a plugin loaded with -d then
# brings the shared libraries in a second time (EAL panics: "RTE_RING tailq
# is already registered"); Debian's testpmd is shared too. Only the
# libraries the tree and its tests use besides DPDK's always-enabled ones
# (lib/meson.build's always_enable): rawdev and cfgfile, and l3fwd-power's
# power, timer, lpm and metrics; about half the build steps of all
# libraries, which were most of a fresh machine's set-up.
RECIPE="-Dplatform=generic -Denable_driver_sdk=true
-Denable_drivers=bus/pci,bus/vdev,net/null,net/ring,net/memif,net/pcap,mempool/ring,raw/skeleton
-Denable_libs=rawdev,cfgfile,timer,power,lpm,metrics
-Denable_apps=test-pmd -Dtests=false -Denable_docs=false -Dexamples= -Dbuildtype=release
-Ddefault_library=shared"

# The s390x variant: the port's patch series applied, cross-built with its
# cross file (Debian's s390x-linux-gnu-gcc), only what its tests use: no
# net/pcap nor net/memif (no s390x libpcap is installed; memif is used by
# the benchmarks alone), no optional library but rawdev and cfgfile
# (dpdk-test-ism-perf); two NUMA nodes, as the ism bus tests' sysfs
# trees have (the port's default is one: Linux on s390 reports one node).
# The port's files are part of the recipe: a change of the port rebuilds.
RECIPE_S390X="--cross-file config/s390x/s390x_linux_gcc -Dplatform=generic
-Dmax_numa_nodes=2 -Denable_driver_sdk=true
-Denable_drivers=bus/pci,bus/vdev,net/null,net/ring,mempool/ring,raw/skeleton
-Denable_libs=rawdev,cfgfile -Denable_apps=test-pmd -Dtests=false -Denable_docs=false
-Dexamples= -Dbuildtype=release -Ddefault_library=shared"
port=$top/platform/s390x

port_digest() {
	(cd "$port" && find dpdk edits series dpdk-port.sh -type f | sort |
		xargs sha256sum) | sha256sum | cut -d' ' -f1
}

die() {
	echo "dpdk-version: $*" >&2
	exit 1
}

# The tarball of a version: exact (25.11.2) or the newest of a series.
tarball() {
	ls "$DPDK_SRC"/dpdk-"$1".tar.xz "$DPDK_SRC"/dpdk-"$1".[0-9]*.tar.xz \
		2>/dev/null | sort -V | tail -n 1
}

world_writable_ancestor() {
	d=$1
	while [ "$d" != / ]; do
		if [ -e "$d" ] &&
		   [ -n "$(find "$d" -maxdepth 0 -perm -0002 2>/dev/null)" ]; then
			echo "$d"
			return 0
		fi
		d=$(dirname "$d")
	done
	return 1
}

# The recipe of a version (full, with -s390x for the port).
recipe() {
	case "$1" in
	*-s390x) echo "$RECIPE_S390X
port $(port_digest)" ;;
	*) echo "$RECIPE" ;;
	esac
}

build() {
	full=$1
	tar=$2
	src=$DPDK_CACHE/dpdk-$full
	inst=$DPDK_CACHE/install-$full
	stamp=$inst/.dpdk-ism-recipe
	want=$(recipe "$full")
	if [ "$(cat "$stamp" 2>/dev/null)" = "$want" ]; then
		return 0
	fi
	echo "dpdk-version: building DPDK $full into $inst (once per" \
		"machine; log in $DPDK_CACHE/build-$full.log)" >&2
	rm -rf "$src" "$inst"
	mkdir -p "$src"
	tar -C "$src" --strip-components=1 -xf "$tar"
	[ -f "$src/VERSION" ] || die "$tar does not unpack to a DPDK tree"
	opts=$RECIPE
	case "$full" in
	*-s390x)
		command -v s390x-linux-gnu-gcc >/dev/null ||
			die "no s390x-linux-gnu-gcc: run devtools/setup.sh s390x"
		"$port/dpdk-port.sh" apply "$src" >&2 ||
			die "the s390x port does not apply to $tar"
		opts=$RECIPE_S390X
		;;
	esac
	# Debian's python3 (with pyelftools) ahead of any other on PATH.
	# shellcheck disable=SC2086
	if ! (cd "$src" && PATH=/usr/bin:$PATH &&
	      meson setup build --prefix="$inst" $opts &&
	      ninja -C build install) >"$DPDK_CACHE/build-$full.log" 2>&1; then
		tail -n 30 "$DPDK_CACHE/build-$full.log" >&2
		die "building DPDK $full failed (log: $DPDK_CACHE/build-$full.log)"
	fi
	# The source stays (pmdinfogen, driver-SDK headers); the objects go.
	rm -rf "$src/build"
	echo "$want" > "$stamp"
}

# dpdk-test: the version's recipe with app/test (and ptr_compress, which
# the ring tests need), in $DPDK_CACHE/test-<full>: the whole DPDK once
# more and the unit tests, about as long again as the version's build.
test_options() {
	recipe "$1" | sed '/^port /d' |
		sed 's/-Dtests=false/-Dtests=true/;
		     s/-Denable_apps=test-pmd/-Denable_apps=test-pmd,test/;
		     s/-Denable_libs=\([^ ]*\)/-Denable_libs=\1,ptr_compress/'
}

dpdk_test() {
	inst=$(prefix "$1")
	full=${inst##*/install-}
	src=$DPDK_CACHE/dpdk-$full
	bld=$DPDK_CACHE/test-$full
	want="$(recipe "$full")
dpdk-test"
	exec 9>"$DPDK_CACHE/.lock-$full"
	flock 9
	if [ "$(cat "$bld/.dpdk-ism-recipe" 2>/dev/null)" != "$want" ]; then
		echo "dpdk-version: building DPDK $full's dpdk-test in $bld" \
			"(once per machine; log in" \
			"$DPDK_CACHE/build-test-$full.log)" >&2
		rm -rf "$bld"
		# shellcheck disable=SC2046
		if ! (cd "$src" && PATH=/usr/bin:$PATH &&
		      meson setup "$bld" $(test_options "$full") &&
		      ninja -C "$bld") \
		      >"$DPDK_CACHE/build-test-$full.log" 2>&1; then
			tail -n 30 "$DPDK_CACHE/build-test-$full.log" >&2
			die "building dpdk-test of $full failed (log:" \
				"$DPDK_CACHE/build-test-$full.log)"
		fi
		echo "$want" > "$bld/.dpdk-ism-recipe"
	fi
	exec 9>&-
	echo "$bld"
}

# The full version of <ver> (25.11 -> 25.11.2, 25.11-s390x ->
# 25.11.2-s390x) and its tarball; none: status 1.
full_version() {
	case "$1" in
	*-s390x) v=${1%-s390x} sfx=-s390x ;;
	*) v=$1 sfx= ;;
	esac
	tar=$(tarball "$v")
	[ -n "$tar" ] || return 1
	full=$(basename "$tar" .tar.xz)
	full=${full#dpdk-}$sfx
}

prefix() {
	full_version "$1" || die "no tarball of DPDK ${1%-s390x} in $DPDK_SRC"
	if w=$(world_writable_ancestor "$DPDK_CACHE"); then
		die "DPDK_CACHE $DPDK_CACHE is below the world-writable $w," \
			"where EAL refuses to load its plugins"
	fi
	mkdir -p "$DPDK_CACHE"
	# One build of a version at a time; the others wait, then reuse it.
	exec 9>"$DPDK_CACHE/.lock-$full"
	flock 9
	build "$full" "$tar"
	exec 9>&-
	echo "$DPDK_CACHE/install-$full"
}

case "${1:-}" in
list)
	for t in "$DPDK_SRC"/dpdk-*.tar.xz; do
		[ -f "$t" ] || continue
		t=$(basename "$t" .tar.xz)
		echo "${t#dpdk-}"
	done
	;;
prefix)
	[ $# = 2 ] || die "usage: $0 prefix <version>"
	prefix "$2"
	;;
dpdk-test)
	[ $# = 2 ] || die "usage: $0 dpdk-test <version>"
	dpdk_test "$2"
	;;
tarball)
	[ $# = 2 ] || die "usage: $0 tarball <version>"
	t=$(tarball "$2")
	[ -n "$t" ] || exit 1
	echo "$t"
	;;
find)
	[ $# = 2 ] || die "usage: $0 find <version>"
	full_version "$2" || exit 1
	inst=$DPDK_CACHE/install-$full
	[ "$(cat "$inst/.dpdk-ism-recipe" 2>/dev/null)" = "$(recipe "$full")" ] ||
		exit 1
	echo "$inst"
	;;
env)
	[ $# = 2 ] || die "usage: $0 env <version>"
	p=$(prefix "$2")
	pc=$(dirname "$(find "$p" -name libdpdk.pc | head -n 1)")
	full=${p##*/install-}
	echo "DPDK_PREFIX=$p"
	echo "DPDK_PKG_CONFIG_PATH=$pc"
	echo "DPDK_LIBDIR=$(dirname "$pc")"
	echo "DPDK_SOURCE=$DPDK_CACHE/dpdk-$full"
	;;
*)
	die "usage: $0 list | prefix <version> | dpdk-test <version> |" \
		"tarball <version> |" \
		"find <version> | env <version>"
	;;
esac
