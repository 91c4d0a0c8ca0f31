# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ism authors
#
# Sourced by the install tests: `meson install` of a build into a scratch
# DESTDIR, which is also a moved prefix (the files are not where the build
# put its prefix), and what is where in it.
#
#   stage_install <build dir> <name>      ($here: this directory)
# sets dest (the DESTDIR, removed at exit by stage_cleanup, which also puts
# back the build's install-log.txt), prefix, bindir, libdir, pmd_dir
# (the staged paths, the prefix's own below $dest), pc_dir and
# PKG_CONFIG_PATH (libdpdk-ism.pc first, then the DPDK the build used).

# EAL's -d refuses plugin paths under a world-writable directory (/tmp):
# stage below the build tree unless that is the case.
stage_safe_dir() {
	d=$1
	while [ "$d" != / ]; do
		[ -n "$(find "$d" -maxdepth 0 -perm -0002 2>/dev/null)" ] &&
			return 1
		d=$(dirname "$d")
	done
	return 0
}

. "$here/install_log.sh"

# At exit (a caller's own trap calls it first): the user's install log
# back, the staged files gone.
stage_cleanup() {
	install_log_restore
	rm -rf "$dest"
}

stage_option() {
	meson introspect --buildoptions "$1" | python3 -c \
		'import json, sys; print([o["value"] for o in json.load(sys.stdin)
		 if o["name"] == sys.argv[1]][0])' "$2"
}

stage_install() {
	build=$(cd "$1" && pwd)
	if stage_safe_dir "$build"; then
		dest=$(mktemp -d "$build/$2.XXXXXX")
	else
		dest=$(mktemp -d "/var/lib/dpdk-ism-$2.XXXXXX")
	fi
	trap stage_cleanup EXIT
	chmod 755 "$dest"
	install_log_keep "$build" "$dest"
	DESTDIR=$dest meson install -C "$build" --no-rebuild --quiet >/dev/null
	prefix=$dest$(stage_option "$build" prefix)
	bindir=$prefix/$(stage_option "$build" bindir)
	libdir=$prefix/$(stage_option "$build" libdir)
	pc_dir=$libdir/pkgconfig
	[ -f "$pc_dir/libdpdk-ism.pc" ] ||
		{ echo "FAIL: libdpdk-ism.pc not in $pc_dir"; exit 1; }
	PKG_CONFIG_PATH=$pc_dir${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}
	export PKG_CONFIG_PATH
	# pmd_dir: below the (relocated) prefix, or an absolute directory
	# outside it, which DESTDIR moved too.
	pmd_dir=$(pkg-config --variable=pmd_dir libdpdk-ism)
	case "$pmd_dir" in
	"$dest"/*) ;;
	/*) pmd_dir=$dest$pmd_dir ;;
	*) echo "FAIL: pmd_dir '$pmd_dir' is not an absolute path"; exit 1 ;;
	esac
	[ -f "$pmd_dir/librte_raw_ism.so" ] ||
		{ echo "FAIL: no PMD plugin in pmd_dir $pmd_dir"; exit 1; }
}
