#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ism authors
#
# The installed project as a user meets it, after `meson install` into a
# scratch DESTDIR (tests/install/stage.sh), which is also a moved prefix:
#   static    a program linked with pkg-config --static --libs libdpdk-ism
#             (the archives of librte_ism and of the drivers, whole, and
#             DPDK's): no shared ISM or DPDK library, its devices with
#             --vdev alone (no -d), the PMD info in it
#   programs  the installed programs (dpdk-test-ism, dpdk-ism_fwd) start
#             from the moved prefix with no LD_LIBRARY_PATH for ISM: every
#             ISM library they and the plugins need is found in it, through
#             run paths relative to $ORIGIN, never in the build's prefix
#   pmdinfo   Debian's dpdk-pmdinfo.py on the installed plugins: the devargs
#             of ism_lo, ism_shm and net_ism, the PCI ids and the kernel
#             modules of ism_pci
#   install_check.sh <case> <build dir> <tests/install dir> <tag> [<pmdinfo>]
# <pmdinfo>: "no" when the build has no pmdinfogen (the case is skipped).
set -eu
case=$1
here=$3
tag=$4
. "$here/stage.sh"
stage_install "$2" "install-$case"
build_prefix=$(stage_option "$build" prefix)
trap 'stage_cleanup; rm -rf /var/run/dpdk/ism-inst-$tag-$$' EXIT

fail() {
	echo "FAIL: $*"
	exit 1
}

# The ISM libraries an ELF file needs, with where the loader finds them:
# nothing on LD_LIBRARY_PATH but the DPDK the build used (DPDK_LIBDIR).
ism_deps() {
	env LD_LIBRARY_PATH="${DPDK_LIBDIR:-}" ldd "$1" |
		awk '/librte_(ism|raw_ism|bus_ism)\.so/ { print $1, $3 }'
}

# Every ISM library of f is found below the staged prefix.
check_resolved() {
	ism_deps "$1" > "$dest/deps"
	while read -r lib path; do
		case "$path" in
		"$dest"/*) ;;
		*) fail "$(basename "$1") finds $lib at '$path', not in" \
			"the moved prefix $dest" ;;
		esac
	done < "$dest/deps"
}

# No run path of an installed file names the build's prefix: a moved
# prefix would not be found, or the old one would be loaded.
check_runpath() {
	rp=$(readelf -d "$1" | sed -n 's/.*(RUNPATH).*\[\(.*\)\]/\1/p;
		s/.*(RPATH).*\[\(.*\)\]/\1/p')
	for rp_dir in $(echo "$rp" | tr ':' ' '); do
		case "$rp_dir" in
		"$build_prefix"|"$build_prefix"/*)
			fail "$(basename "$1") has run path $rp_dir, in the build's" \
				"prefix: not relocatable" ;;
		esac
	done
}

case $case in
static)
	# shellcheck disable=SC2086
	cc -O2 -DALLOW_EXPERIMENTAL_API ${ISM_TEST_CFLAGS:-} \
		"$here/ism_client.c" -o "$dest/ism_client_static" \
		$(pkg-config --cflags libdpdk-ism) \
		$(pkg-config --static --libs libdpdk-ism)
	if readelf -d "$dest/ism_client_static" | grep -q 'NEEDED.*librte_'
	then
		readelf -d "$dest/ism_client_static" | grep NEEDED
		fail "the static program needs shared DPDK or ISM libraries"
	fi
	# No -d: the drivers are in the program.
	timeout 60 env -u LD_LIBRARY_PATH "$dest/ism_client_static" -l 0 \
		--no-huge -m 256 --no-shconf --no-pci \
		--file-prefix "ism-inst-$tag-$$" --vdev ism_lo0 --vdev ism_lo1 ||
		fail "the static program did not move data between ism_lo0" \
			"and ism_lo1"
	if command -v dpdk-pmdinfo.py >/dev/null; then
		dpdk-pmdinfo.py "$dest/ism_client_static" | grep -q '"ism_lo"' ||
			fail "no PMD info of ism_lo in the static program"
	fi
	;;
programs)
	progs=dpdk-test-ism
	[ "$(stage_option "$build" examples)" = False ] ||
		progs="$progs dpdk-ism_fwd"
	for p in $progs; do
		[ -x "$bindir/$p" ] || fail "$p not installed in $bindir"
		check_runpath "$bindir/$p"
		check_resolved "$bindir/$p"
		# The DPDK libraries as for any program; the ISM ones from
		# the moved prefix alone.
		env LD_LIBRARY_PATH="${DPDK_LIBDIR:-}" timeout 60 "$bindir/$p" \
			--help > "$dest/help" 2>&1 ||
			{ cat "$dest/help"; fail "$p --help did not run"; }
		grep -q -- '--vdev' "$dest/help" ||
			{ cat "$dest/help"; fail "$p --help: no EAL usage"; }
		echo "$p starts from the moved prefix"
	done
	# The benchmark's default cases: the installed perf.ini, found from
	# the moved prefix (it used to be the source tree's path).
	p=dpdk-test-ism-perf
	env LD_LIBRARY_PATH="${DPDK_LIBDIR:-}" timeout 60 "$bindir/$p" \
		-- --list > "$dest/list" 2>&1 ||
		{ cat "$dest/list"; fail "$p --list did not run"; }
	data=$(cd "$prefix/$(stage_option "$build" datadir)/dpdk-ism" && pwd -P)
	first=$(sed -n 's/^cases of \(.*\):$/\1/p' "$dest/list")
	[ -n "$first" ] && [ "$(cd "$(dirname "$first")" && pwd -P)" = "$data" ] ||
		{ cat "$dest/list"; fail "$p reads '$first', not $data/perf.ini"; }
	grep -q '^copy_lo' "$dest/list" ||
		{ cat "$dest/list"; fail "$p --list: no cases"; }
	echo "$p reads its installed cases"
	for f in "$libdir"/librte_ism.so "$pmd_dir"/librte_*_ism.so; do
		case "$f" in
		"$prefix"/*)
			check_runpath "$f"
			check_resolved "$f" ;;
		esac
	done
	;;
pmdinfo)
	if [ "${5:-}" = no ]; then
		echo "SKIP: built without DPDK's pmdinfogen.py (option dpdk_sdk)"
		exit 77
	fi
	command -v dpdk-pmdinfo.py >/dev/null ||
		fail "dpdk-pmdinfo.py not found (Debian package dpdk)"
	# Both PMD plugins' entries in one list.
	dpdk-pmdinfo.py "$pmd_dir/librte_raw_ism.so" \
		"$pmd_dir/librte_net_ism.so" > "$dest/pmdinfo"
	cat "$dest/pmdinfo"
	python3 - "$dest/pmdinfo" <<'EOF' || fail "wrong PMD info"
import json
import sys

info = {d["name"]: d for d in json.load(open(sys.argv[1]))}
want = {
    "ism_lo": ["gid=", "chid=", "max_dmbs=", "max_dmb_len="],
    "ism_shm": ["dir=", "gid=", "chid=", "max_dmbs=", "max_dmb_len="],
    "ism_pci": ["max_dmbs=", "max_dmb_len="],
    "net_ism": ["ism=", "peer=", "zero-copy=", "queues="],
}
ok = True
for name, keys in want.items():
    params = info.get(name, {}).get("params", "")
    for k in keys:
        if k not in params:
            print(f"{name}: no {k} in params '{params}'")
            ok = False
pci = info.get("ism_pci", {})
if pci.get("pci_ids") != [{"vendor": "1014", "device": "04ed"}]:
    print(f"ism_pci: PCI ids {pci.get('pci_ids')}, not 1014:04ed")
    ok = False
if "ism_vfio_pci" not in pci.get("kmod", ""):
    print(f"ism_pci: kernel modules '{pci.get('kmod')}' without ism_vfio_pci")
    ok = False
sys.exit(0 if ok else 1)
EOF
	;;
*)
	fail "unknown case $case"
	;;
esac
echo "PASS"
