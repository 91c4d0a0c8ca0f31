#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ism authors
#
# devtools/check-forbidden-tokens.sh must fail on each kind of token that
# DPDK 25.11's checkpatches.sh refuses, and pass on the same tree without
# it (a tree outside git: the script walks the files).
#
#   lint_selftest.sh LINT_SCRIPT AWK_SCRIPT
set -eu

lint=$1
awk_script=$2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ism-lint-test.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fails=0

# One tree with a file per case (DIR/NAME.EXT holding LINE); the script
# names every file that breaks a rule. First clean (each file holds a
# harmless line: nothing refused), then each with its forbidden line.
cases="lib atomic-builtin c x = __atomic_load_n(&y, __ATOMIC_ACQUIRE);
drivers atomic-order c x = rte_atomic_load_explicit(&y, __ATOMIC_RELAXED);
app sync-builtin c __sync_synchronize();
drivers rte-log c rte_log(RTE_LOG_ERR, t, \"x\");
lib RTE-LOG c RTE_LOG(ERR, EAL, \"x\");
lib printf c printf(\"x\");
drivers pthread-join c pthread_join(t, NULL);
examples builtin c n = __builtin_clz(x);
lib pragma c #pragma once
lib install-headers build install_headers('a.h')
drivers pci-regs c #include <linux/pci_regs.h>
drivers ctrl-thread c rte_thread_create_control(&t, \"x\", f, NULL);
lib member-aligned h 	uint64_t a __rte_cache_aligned;
drivers trailing-aligned h } __rte_aligned(64);
lib packed-alone h int x __rte_packed_begin;"

tree() {
	rm -rf "$tmp/tree"
	printf '%s\n' "$cases" | while read -r dir name ext line; do
		mkdir -p "$tmp/tree/$dir"
		f=$tmp/tree/$dir/$name.$ext
		[ "$ext" = build ] && f=$tmp/tree/$dir/$name/meson.build
		mkdir -p "$(dirname "$f")"
		if [ "$1" = clean ]; then
			echo 'static int ok;' > "$f"
		else
			printf 'static int ok;\n%s\n' "$line" > "$f"
		fi
	done
}

tree clean
if ! out=$("$lint" -a "$awk_script" "$tmp/tree" 2>&1); then
	printf '%s\n' "$out"
	echo "FAIL: the clean tree is refused"
	fails=$((fails + 1))
fi
tree bad
if out=$("$lint" -a "$awk_script" "$tmp/tree" 2>&1); then
	echo "FAIL: the tree of forbidden tokens passes"
	fails=$((fails + 1))
fi
printf '%s\n' "$cases" | while read -r dir name ext line; do
	case $name in
	# Reported by rule message, not by file.
	member-aligned) want='__rte_cache_aligned only for struct' ;;
	trailing-aligned) want='__rte_aligned only for struct' ;;
	packed-alone) want='__rte_packed_begin only after' ;;
	*) want=$dir/$name ;;
	esac
	if printf '%s\n' "$out" | grep -qF "$want"; then
		echo "ok   $name"
	else
		echo "FAIL $name: '$line' not refused"
		echo x >> "$tmp/failed"
	fi
done
[ ! -f "$tmp/failed" ] || fails=$((fails + $(wc -l < "$tmp/failed")))

if [ $fails -gt 0 ]; then
	echo "lint_selftest: $fails case(s) wrong"
	exit 1
fi
echo "lint_selftest: every case refused, every clean tree passed"
