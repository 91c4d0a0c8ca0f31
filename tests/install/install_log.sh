# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ism authors
#
# Sourced by every test that runs `meson install` of the user's build (into
# a scratch DESTDIR or a throw-away overlay): meson rewrites the build's
# meson-logs/install-log.txt, which `ninja uninstall` reads to remove the
# user's own install. Keep it (or its absence) and put it back.
#
#   install_log_keep <build dir> <scratch dir>   before meson install
#   install_log_restore                          at exit (idempotent)

install_log_keep() {
	install_log=$1/meson-logs/install-log.txt
	install_log_kept=$2/install-log.kept
	if [ -f "$install_log" ]; then
		cp -p "$install_log" "$install_log_kept"
	else
		rm -f "$install_log_kept"
	fi
	install_log_armed=1
}

install_log_restore() {
	[ "${install_log_armed:-}" = 1 ] || return 0
	if [ -f "$install_log_kept" ]; then
		mv -f "$install_log_kept" "$install_log"
	else
		rm -f "$install_log"
	fi
	install_log_armed=
}
