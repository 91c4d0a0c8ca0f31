#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ism authors
#
# The system-wide install of the README, `meson install -C build &&
# ldconfig`, then what a user does next with nothing set in the
# environment: the installed programs from PATH, a program built with
# plain `pkg-config libdpdk-ism` (the .pc found in pkg-config's default
# search path) running with its drivers from pmd_dir, the libraries found
# through the loader's cache.
#
# The machine is not changed: the test runs in a mount namespace of its
# own where /usr/local and /etc (ldconfig's cache) are overlays whose
# writes go to a scratch directory, discarded at the end.
#   install_system.sh <build dir> <tests/install dir> <tag>
# Skipped (77) when the build is not against the system's DPDK or its
# prefix is not /usr/local, or without overlayfs in a mount namespace.
set -eu
build=$(cd "$1" && pwd)
here=$2
tag=$3

. "$here/stage.sh"

if [ "$(stage_option "$build" prefix)" != /usr/local ]; then
	echo "SKIP: the build's prefix is $(stage_option "$build" prefix)," \
		"not /usr/local"
	exit 77
fi
# Only /usr/local is a throw-away overlay: a pmd_dir elsewhere (an absolute
# one, e.g. DPDK's plugin directory) would be installed into for real.
case "$(stage_option "$build" pmd_dir)" in
/usr/local/*|[!/]*|"") ;;
*)
	echo "SKIP: pmd_dir $(stage_option "$build" pmd_dir) is outside" \
		"/usr/local"
	exit 77
	;;
esac
# The DPDK the build used (the PKG_CONFIG_PATH meson test sets) must be
# the one a plain pkg-config finds: the system's.
dpdk_pc=$(pkg-config --variable=pcfiledir libdpdk)
case "$dpdk_pc" in
/usr/lib/*) ;;
*)
	echo "SKIP: built against the DPDK in $dpdk_pc, not the system's"
	exit 77
	;;
esac

if [ "${ISM_IN_NS:-}" != 1 ]; then
	if [ "$(id -u)" != 0 ]; then
		echo "SKIP: needs root (mount namespace and overlays)"
		exit 77
	fi
	scratch=$(mktemp -d /var/lib/dpdk-ism-install-system.XXXXXX)
	install_log_keep "$build" "$scratch"
	trap 'install_log_restore
		rm -rf "$scratch" /var/run/dpdk/ism-sys-"$tag"-$$' EXIT
	status=0
	ISM_IN_NS=1 ISM_SCRATCH=$scratch ISM_RUN_PREFIX=ism-sys-$tag-$$ \
		timeout 600 unshare --mount --propagation private \
		"$0" "$@" || status=$?
	exit $status
fi

# In the namespace from here on.
scratch=$ISM_SCRATCH
overlay() {
	mkdir -p "$scratch/$2.upper" "$scratch/$2.work"
	mount -t overlay overlay -o "lowerdir=$1,upperdir=$scratch/$2.upper" \
		-o "workdir=$scratch/$2.work" "$1" 2>"$scratch/mount.err" || {
		echo "SKIP: no overlay mount on $1: $(cat "$scratch/mount.err")"
		exit 77
	}
}
overlay /usr/local usr-local
overlay /etc etc

fail() {
	echo "FAIL: $*"
	exit 1
}

meson install -C "$build" --no-rebuild --quiet >/dev/null
ldconfig
[ -n "$(find "$scratch/usr-local.upper" -name 'librte_ism.so*')" ] ||
	fail "meson install wrote no librte_ism.so below /usr/local"

# A user's environment: nothing of the build or of meson test.
clean_env() {
	env -i PATH=/usr/local/bin:/usr/bin:/bin HOME=/root "$@"
}
eal="-l 0 --no-huge -m 256 --no-shconf --no-pci --file-prefix $ISM_RUN_PREFIX"

for p in dpdk-test-ism dpdk-ism_fwd; do
	if [ "$p" = dpdk-ism_fwd ] &&
	   [ "$(stage_option "$build" examples)" = False ]; then
		continue
	fi
	clean_env timeout 60 "$p" --help > "$scratch/help" 2>&1 ||
		{ cat "$scratch/help"; fail "$p --help did not run"; }
	grep -q -- '--vdev' "$scratch/help" ||
		{ cat "$scratch/help"; fail "$p --help: no EAL usage"; }
	echo "$p starts from PATH"
done

pmd_dir=$(clean_env pkg-config --variable=pmd_dir libdpdk-ism) ||
	fail "pkg-config does not find libdpdk-ism.pc in its default path"
echo "pmd_dir=$pmd_dir"
[ -f "$pmd_dir/librte_raw_ism.so" ] || fail "no plugin in $pmd_dir"

# The installed dpdk-test-ism, suites on loopback devices (its drivers
# are built in: it calls into the PMD, whose plugin exports nothing).
# shellcheck disable=SC2086
clean_env timeout 120 dpdk-test-ism $eal \
	-- functional --suite api,move,signal > "$scratch/suite" 2>&1 ||
	{ tail -n 30 "$scratch/suite"; fail "dpdk-test-ism failed"; }
echo "the installed dpdk-test-ism passes api, move, signal"

# A program built out of tree with the README's command (the tests'
# assertions from the source tree, ISM_TEST_CFLAGS).
# shellcheck disable=SC2086
clean_env cc -O2 -DALLOW_EXPERIMENTAL_API ${ISM_TEST_CFLAGS:-} \
	"$here/ism_client.c" -o "$scratch/ism_client" \
	$(clean_env pkg-config --cflags --libs libdpdk-ism) ||
	fail "cannot build a program with pkg-config libdpdk-ism"
# shellcheck disable=SC2086
clean_env timeout 60 "$scratch/ism_client" $eal -d "$pmd_dir" \
	--vdev ism_lo0 --vdev ism_lo1 ||
	fail "the program did not move data between ism_lo0 and ism_lo1"
echo "PASS"
