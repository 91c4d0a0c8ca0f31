#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ism authors
#
# A DPDK version other than the installed one (22.11, Debian's), built
# once per machine from its source into a cache outside the tree, for
# building and testing dpdk-ism against it.
#
#   dpdk-version.sh list           the versions make test builds: 24.11 and
#                                  25.11 (with DPDK_SRC: its tarballs')
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
#   dpdk-version.sh tarball <ver>  the source tarball of <ver>, fetched if
#                                  needed (else status 1, saying what is
#                                  missing)
#   dpdk-version.sh find <ver>     the install prefix of <ver> if it is
#                                  built already (else status 1): no build,
#                                  no fetch
#   dpdk-version.sh env <ver>      the same as prefix, then shell assignments:
#                                  DPDK_PREFIX, DPDK_PKG_CONFIG_PATH,
#                                  DPDK_LIBDIR, DPDK_SOURCE (the source
#                                  tree: -Ddpdk_sdk, for pmdinfogen),
#                                  DPDK_VERSION (the patch level built) and
#                                  DPDK_ORIGIN (where its source came from)
#
# Where the source comes from, first found:
#  1. DPDK_SRC, when set: a directory of release tarballs
#     dpdk-<full version>.tar.xz (the newest of a series is taken).
#  2. Debian's source package of that release series, fetched once per
#     machine into the cache: 24.11 from Debian 13 (trixie), 25.11 from
#     sid (22.11, the installed DPDK's, from Debian 12), the newest upload of the series the suite's index offers whose
#     files can be fetched (sid drops old uploads: the patch level follows
#     the archive, and is printed and recorded with the build). apt-get
#     source --download-only with an apt configuration of the cache's own
#     (its sources list, lists and package cache under
#     $DPDK_CACHE/debian/<suite>): the machine's apt sources and state are
#     untouched, nothing is installed. The mirror and keyring are those of
#     the machine's Debian entry (/etc/apt/sources.list.d/*.sources).
#     apt checks the files against the suite's signed index, dpkg-source
#     -x the .orig tarball against the .dsc's checksums; the verified
#     .orig tarball (DPDK's release tarball) is kept in
#     $DPDK_CACHE/src. DPDK_NO_FETCH=1: no fetch, only what is cached.
#  3. The tarballs of ../shared/dpdk-src next to this tree (or next to the
#     main tree of a git worktree), when the fetch failed: said on stderr.
#
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
# The fallback tarballs: ../shared/dpdk-src next to the tree, or next to
# the main work tree of a git worktree (DPDK_FALLBACK_SRC: another
# directory, for tests/devtools/dpdk_source_test.sh).
FALLBACK_SRC=$top/../shared/dpdk-src
common=$(git -C "$top" rev-parse --path-format=absolute \
	--git-common-dir 2>/dev/null || true)
if [ ! -d "$FALLBACK_SRC" ] && [ -n "$common" ]; then
	FALLBACK_SRC=$(dirname "$common")/../shared/dpdk-src
fi
FALLBACK_SRC=${DPDK_FALLBACK_SRC:-$FALLBACK_SRC}
if [ "$(id -u)" = 0 ]; then
	DPDK_CACHE=${DPDK_CACHE:-/var/cache/dpdk-ism}
else
	DPDK_CACHE=${DPDK_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/dpdk-ism}
fi
# The Debian suite whose source package gives a release series.
debian_suite() {
	case "$1" in
	22.11) echo bookworm ;;
	24.11) echo trixie ;;
	25.11) echo sid ;;
	*) return 1 ;;
	esac
}

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

# The tarball of a version in directory $2: exact (25.11.2) or the newest
# of a series.
tarball_in() {
	ls "$2"/dpdk-"$1".tar.xz "$2"/dpdk-"$1".[0-9]*.tar.xz \
		2>/dev/null | sort -V | tail -n 1
}

# The machine's Debian archive and its keyring (uri, key): the first
# deb822 entry whose URI is a Debian archive (.../debian, not the security
# archive), else the one-line sources.list's, else Debian's defaults.
debian_mirror() {
	uri=
	key=
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -f "$f" ] || continue
		# shellcheck disable=SC2046
		set -- $(awk 'BEGIN { RS = ""; FS = "\n" }
			{
				u = ""; k = ""
				for (i = 1; i <= NF; i++) {
					if ($i ~ /^URIs:/) { split($i, a, /[ \t]+/); u = a[2] }
					if ($i ~ /^Signed-By:/) { split($i, a, /[ \t]+/); k = a[2] }
				}
				if (u ~ /\/debian\/?$/) { print u, k; exit }
			}' "$f")
		if [ $# -ge 1 ]; then
			uri=$1
			key=${2:-}
			break
		fi
	done
	if [ -z "$uri" ] && [ -f /etc/apt/sources.list ]; then
		uri=$(sed -n 's,^deb \(\[[^]]*\] \)\?\([^ ]*/debian/\?\) .*,\2,p' \
			/etc/apt/sources.list | head -n 1)
	fi
	uri=${uri:-http://deb.debian.org/debian}
	case "$key" in
	/*) ;;
	*) key=/usr/share/keyrings/debian-archive-keyring.gpg ;;
	esac
}

# apt with the cache's own configuration for one suite ($ad): its sources
# list, lists and package cache; nothing of the machine's apt state is
# read or written but its dpkg status.
apt_own() {
	tool=$1
	shift
	"$tool" -o Dir::Etc::SourceList="$ad/sources.list" \
		-o Dir::Etc::SourceParts="$ad/empty" \
		-o Dir::Etc::Preferences="$ad/preferences" \
		-o Dir::Etc::PreferencesParts="$ad/empty" \
		-o Dir::State::Lists="$ad/lists" \
		-o Dir::Cache="$ad/cache" \
		-o APT::Sandbox::User=root \
		-o Acquire::Languages=none "$@"
}

# Fetches Debian's source package of the release series $1 (24.11, 25.11):
# the newest upload of the series in its suite's index that can be
# fetched, checked (apt: against the signed index; dpkg-source -x: the
# .dsc's checksums), its .orig tarball kept as $DPDK_CACHE/src/dpdk-<full
# version>.tar.xz with its origin beside it (.origin), replacing other
# patch levels of the series. Status 1, saying why, when none can be had.
debian_fetch() {
	series=$1
	suite=$(debian_suite "$series") || {
		why="no Debian suite is known for DPDK $series"
		return 1
	}
	ad=$DPDK_CACHE/debian/$suite
	log=$DPDK_CACHE/fetch-$series.log
	mkdir -p "$ad/lists/partial" "$ad/cache/archives/partial" \
		"$ad/empty" "$DPDK_CACHE/src"
	: > "$ad/preferences"
	debian_mirror
	echo "deb-src [signed-by=$key] $uri $suite main" > "$ad/sources.list"
	# One fetch of a suite at a time (apt's lock would fail the other).
	exec 8>"$ad/.lock"
	flock 8
	t0=$(date +%s)
	echo "dpdk-version: fetching DPDK $series's source from Debian" \
		"$suite ($uri; once per machine; log in $log)" >&2
	if ! apt_own apt-get update -q >"$log" 2>&1; then
		why="apt-get update of Debian $suite failed: $(grep '^[EW]:' "$log" |
			head -n 1)"
		exec 8>&-
		return 1
	fi
	vers=$(apt_own apt-cache showsrc dpdk 2>>"$log" |
		sed -n 's/^Version: //p' | while IFS= read -r v; do
			up=${v#*:}
			case "${up%-*}" in
			"$series"|"$series".*) echo "$v" ;;
			esac
		done | sort -rVu)
	if [ -z "$vers" ]; then
		why="Debian $suite's index has no dpdk $series"
		exec 8>&-
		return 1
	fi
	why=
	dl=$ad/dl
	for v in $vers; do
		up=${v#*:}
		up=${up%-*}
		rm -rf "$dl"
		mkdir -p "$dl"
		echo "== dpdk $v" >> "$log"
		if ! (cd "$dl" && apt_own apt-get source --download-only -q \
		      "dpdk=$v") >>"$log" 2>&1; then
			w="dpdk $v: $(sed -n "/^== dpdk $v\$/,\$p" "$log" |
				grep -m 1 '^E:')"
			echo "dpdk-version: $w" >&2
			why="$why${why:+; }$w"
			continue
		fi
		# Verifies the files against the .dsc (no --no-check); the
		# tree itself is not kept: the build unpacks the tarball.
		if ! dpkg-source -x --skip-patches "$dl/dpdk_${v#*:}.dsc" \
		     "$dl/tree" >>"$log" 2>&1; then
			w="dpdk $v: dpkg-source -x refused it (see $log)"
			echo "dpdk-version: $w" >&2
			why="$why${why:+; }$w"
			continue
		fi
		if [ "$(cat "$dl/tree/VERSION" 2>/dev/null)" != "$up" ] ||
		   [ ! -f "$dl/dpdk_$up.orig.tar.xz" ]; then
			w="dpdk $v: no DPDK $up release tarball (.orig.tar.xz)"
			echo "dpdk-version: $w" >&2
			why="$why${why:+; }$w"
			continue
		fi
		rm -f "$DPDK_CACHE/src/dpdk-$series".[0-9]*.tar.xz \
			"$DPDK_CACHE/src/dpdk-$series".[0-9]*.origin
		mv "$dl/dpdk_$up.orig.tar.xz" "$DPDK_CACHE/src/dpdk-$up.tar.xz"
		echo "Debian's source package dpdk $v ($suite)" \
			> "$DPDK_CACHE/src/dpdk-$up.origin"
		rm -rf "$dl"
		echo "dpdk-version: DPDK $up fetched and checked (dpdk $v of" \
			"Debian $suite) in $(($(date +%s) - t0)) s" >&2
		exec 8>&-
		return 0
	done
	rm -rf "$dl"
	exec 8>&-
	return 1
}

# The tarball of <ver> (exact 25.11.2 or the newest of a series) by the
# order of the header; none: status 1, having said what is missing.
tarball() {
	if [ -n "${DPDK_SRC:-}" ]; then
		t=$(tarball_in "$1" "$DPDK_SRC")
		if [ -z "$t" ]; then
			echo "dpdk-version: no tarball dpdk-$1.tar.xz (nor" \
				"dpdk-$1.<n>.tar.xz) in DPDK_SRC=$DPDK_SRC" >&2
			return 1
		fi
		echo "$t"
		return 0
	fi
	t=$(tarball_in "$1" "$DPDK_CACHE/src")
	if [ -n "$t" ]; then
		echo "$t"
		return 0
	fi
	why="no fetch (DPDK_NO_FETCH is set) and none fetched yet"
	if [ -z "${DPDK_NO_FETCH:-}" ]; then
		if debian_fetch "$(echo "$1" | cut -d. -f1,2)"; then
			t=$(tarball_in "$1" "$DPDK_CACHE/src")
			if [ -n "$t" ]; then
				echo "$t"
				return 0
			fi
			why="Debian serves $(ls "$DPDK_CACHE/src" |
				sed -n 's/^dpdk-\(.*\)\.tar\.xz$/\1/p' |
				tr '\n' ' ')but not $1"
		fi
	fi
	t=$(tarball_in "$1" "$FALLBACK_SRC")
	if [ -n "$t" ]; then
		echo "dpdk-version: DPDK $1 from the fallback tarball $t:" \
			"Debian's source package could not be had ($why)" >&2
		echo "$t"
		return 0
	fi
	echo "dpdk-version: no source of DPDK $1: $why; no fallback" \
		"tarball dpdk-$1[.<n>].tar.xz in $FALLBACK_SRC either" \
		"(DPDK_SRC=<dir> names a directory of release tarballs)" >&2
	return 1
}

# Where a tarball came from, for the record of the build.
origin() {
	if [ -f "${1%.tar.xz}.origin" ]; then
		cat "${1%.tar.xz}.origin"
	else
		echo "the tarball $1"
	fi
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
	t0=$(date +%s)
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
	origin "$tar" > "$inst/.dpdk-ism-origin"
	echo "$want" > "$stamp"
	echo "dpdk-version: DPDK $full built in $(($(date +%s) - t0)) s" >&2
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
		t0=$(date +%s)
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
		echo "dpdk-version: dpdk-test of $full built in" \
			"$(($(date +%s) - t0)) s" >&2
	fi
	exec 9>&-
	echo "$bld"
}

# The full version of <ver> (25.11 -> 25.11.2, 25.11-s390x ->
# 25.11.2-s390x) and its tarball; none: status 1, said by tarball().
full_version() {
	case "$1" in
	*-s390x) v=${1%-s390x} sfx=-s390x ;;
	*) v=$1 sfx= ;;
	esac
	tar=$(tarball "$v") || return 1
	full=$(basename "$tar" .tar.xz)
	full=${full#dpdk-}$sfx
}

# Where the source of the build of <full version> came from (a build made
# before the origin was recorded has none).
built_from() {
	cat "$DPDK_CACHE/install-$1/.dpdk-ism-origin" 2>/dev/null ||
		echo "a source not recorded (built by an earlier dpdk-version.sh)"
}

# The install prefix of <ver> if built (no build, no fetch); else status 1.
find_prefix() {
	DPDK_NO_FETCH=1 full_version "$1" 2>/dev/null || return 1
	inst=$DPDK_CACHE/install-$full
	[ "$(cat "$inst/.dpdk-ism-recipe" 2>/dev/null)" = "$(recipe "$full")" ] ||
		return 1
	echo "$inst"
}

prefix() {
	# Exit status 3: no source to be had (make test skips that DPDK's
	# suites, saying so); 1: anything else, a failed build among them.
	if ! full_version "$1"; then
		echo "dpdk-version: no source of DPDK ${1%-s390x} (above)" >&2
		exit 3
	fi
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
	echo "dpdk-version: DPDK $1 is $full, from $(built_from "$full")" >&2
	echo "$DPDK_CACHE/install-$full"
}

case "${1:-}" in
list)
	if [ -z "${DPDK_SRC:-}" ]; then
		echo 24.11
		echo 25.11
		exit 0
	fi
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
	tarball "$2"
	;;
find)
	[ $# = 2 ] || die "usage: $0 find <version>"
	find_prefix "$2"
	;;
env)
	[ $# = 2 ] || die "usage: $0 env <version>"
	# A build there is used as it is: no fetch (tests call this).
	p=$(find_prefix "$2") || p=$(prefix "$2")
	pc=$(dirname "$(find "$p" -name libdpdk.pc | head -n 1)")
	full=${p##*/install-}
	echo "DPDK_PREFIX=$p"
	echo "DPDK_PKG_CONFIG_PATH=$pc"
	echo "DPDK_LIBDIR=$(dirname "$pc")"
	echo "DPDK_SOURCE=$DPDK_CACHE/dpdk-$full"
	echo "DPDK_VERSION=${full%-s390x}"
	echo "DPDK_ORIGIN='$(built_from "$full" | sed "s/'/'\\\\''/g")'"
	;;
*)
	die "usage: $0 list | prefix <version> | dpdk-test <version> |" \
		"tarball <version> |" \
		"find <version> | env <version>"
	;;
esac
