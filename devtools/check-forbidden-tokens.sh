#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The dpdk-ism authors
#
# DPDK's lint of forbidden tokens on the whole tree: the rules of
# check_forbidden_additions() in DPDK 25.11's devtools/checkpatches.sh, run
# with DPDK's own devtools/check-forbidden-tokens.awk (devtools/setup.sh
# copies it from the DPDK source package into the driver-SDK directory).
# checkpatches.sh runs the script on a patch; here every file of the tree
# is an addition ("+++ b/FILE", every line "+LINE"), so any use fails, not
# only a new one. Comments are not searched.
#
#   devtools/check-forbidden-tokens.sh [-a AWK_SCRIPT] [SOURCE_DIR]
#
# Prints every file that breaks a rule, with the rule; exit status 1 then.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
awk_script=$top/.deps/dpdk-sdk/devtools/check-forbidden-tokens.awk
while getopts a: opt; do
	case $opt in
	a) awk_script=$OPTARG ;;
	*) sed -n '3,15s/^# \{0,1\}//p' "$0"; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
src=$(cd "${1:-$top}" && pwd)
if [ ! -f "$awk_script" ]; then
	echo "check-forbidden-tokens: $awk_script missing: run devtools/setup.sh" >&2
	exit 2
fi
# \< and \> of the rules need GNU awk (mawk has neither).
AWK=$(command -v gawk || true)
[ -n "$AWK" ] || { echo "check-forbidden-tokens: needs gawk" >&2; exit 2; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/ism-lint.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# The files of the tree (git's view if there is one: tracked and new,
# ignored ones excluded), text only.
if git -C "$src" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	git -C "$src" ls-files --cached --others --exclude-standard
else
	(cd "$src" && find . -path ./.git -prune -o -path './build*' -prune \
		-o -path ./.deps -prune -o -type f -print | sed 's|^\./||')
fi | sort > "$tmp/files"

# The whole tree as one pseudo-patch; the awk script itself keeps the
# files under a rule's folders.
(cd "$src" && tr '\n' '\0' < "$tmp/files" | xargs -0 grep -Il '' 2>/dev/null |
	tr '\n' '\0' | xargs -0 "$AWK" 'FNR == 1 {
		printf "--- a/%s\n+++ b/%s\n@@ -0,0 +1 @@\n", FILENAME, FILENAME
	}
	{ print "+" $0 }') > "$tmp/tree.patch"

# patch SKIP: the tree's patch without the files whose path matches the
# extended regular expression SKIP.
patch() {
	# (ENVIRON: -v would take the backslashes of SKIP as escapes)
	SKIP=$1 "$AWK" '/^--- a\// {
			skip = ENVIRON["SKIP"]
			keep = skip == "" || substr($0, 7) !~ skip
		}
		keep' "$tmp/tree.patch" > "$tmp/patch"
}

fails=0
# rule FOLDERS EXPRESSIONS MESSAGE [SKIP]: as checkpatches.sh calls the awk
# script; the awk script stops at the first file that breaks the rule, so
# the rule runs again without it until it passes.
rule() {
	skip=${4:-}
	while :; do
		patch "$skip"
		out=$("$AWK" -v FOLDERS="$1" -v EXPRESSIONS="$2" \
			-v RET_ON_FAIL=1 -v MESSAGE="$3" -f "$awk_script" \
			"$tmp/patch") && break
		printf '%s\n' "$out"
		fails=$((fails + 1))
		bad=$(printf '%s\n' "$out" | sed -n 's/^Warning in b\///p; s/^Warning in //p' |
			sed 's/:$//' | head -n 1)
		[ -n "$bad" ] || break
		skip="${skip:+$skip|}^$(printf '%s' "$bad" | sed 's/[.[\*^$]/\\&/g')\$"
	done
}

# DPDK 25.11 devtools/checkpatches.sh, check_forbidden_additions(), the
# same expressions and messages (the rules for DPDK's config/, cnxk,
# app/test and doc.dpdk.org links are left out: this tree has none of
# those). config/ism_compat.h gives older DPDKs what the rules ask for.
rule "lib" \
	"RTE_LOG\\\(" \
	'Prefer RTE_LOG_LINE'
rule "drivers" \
	"RTE_LOG\\\( RTE_LOG_DP\\\( rte_log\\\(" \
	'Prefer RTE_LOG_LINE/RTE_LOG_DP_LINE'
# The shm reaper is a program of its own (a process the PMD starts, with
# no EAL and so no log): its usage and failure lines go to its stderr.
rule "lib drivers" \
	"\\\<printf\\\> \\\<fprintf\\\(stdout, \\\<fprintf\\\(stderr," \
	'Writing to stdout or stderr' \
	'^drivers/raw/ism/shm/ism_shm_reaper\.c$'
rule "lib drivers" \
	"rte_panic\\\( rte_exit\\\(" \
	'Using rte_panic/rte_exit'
rule "lib drivers" \
	"\\\<install_headers\\\>" \
	'Using install_headers()'
rule "lib drivers app examples" \
	"__attribute__" \
	'Using compiler attribute directly'
rule 'lib drivers app examples' \
	'%ll*[xud]' \
	'Using %l format, prefer %PRI*64 if type is [u]int64_t'
rule "lib drivers app examples" \
	"rte_atomic[0-9][0-9]_.*\\\(" \
	'Using rte_atomicNN_xxx'
rule "lib drivers app examples" \
	"rte_smp_(r|w)?mb\\\(" \
	'Using rte_smp_[r/w]mb'
rule "lib drivers app examples" \
	"__sync_.*\\\(" \
	'Using __sync_xxx builtins'
rule "lib drivers app examples" \
	"__rte_atomic_thread_fence\\\(" \
	'Using __rte_atomic_thread_fence, prefer rte_atomic_thread_fence'
rule "lib drivers app examples" \
	"__atomic_.*\\\( __ATOMIC_(RELAXED|CONSUME|ACQUIRE|RELEASE|ACQ_REL|SEQ_CST)" \
	'Using __atomic_xxx/__ATOMIC_XXX built-ins, prefer rte_atomic_xxx/rte_memory_order_xxx'
rule "lib drivers app examples" \
	"pthread_(create|join|detach|set(_?name_np|affinity_np)|attr_set(inheritsched|schedpolicy))\\\(" \
	'Using pthread functions, prefer rte_thread'
rule "lib drivers app examples" \
	'\\<__reserved\\>' \
	'Using __reserved'
rule "lib drivers app examples" \
	'\\<__alignof__\\>' \
	'Using __alignof__, prefer C11 alignof'
rule "lib drivers app examples" \
	'\\<__typeof__\\>' \
	'Using __typeof__, prefer typeof'
rule "lib drivers app examples" \
	'\\<__builtin_' \
	'Using __builtin helpers, prefer EAL macros'
rule "lib drivers app examples" \
	'include.*linux/pci_regs\\.h' \
	'Using linux/pci_regs.h, prefer rte_pci.h'
rule "lib drivers app examples" \
	'#[[:space:]]*define.*[^(,[:space:]]\\.\\.\\.[[:space:]]*)' \
	'Do not use variadic argument pack in macros'
rule 'lib drivers app examples' \
	'enum.*__rte_packed_begin' \
	'Using __rte_packed_begin with enum is not allowed'
rule 'lib drivers app examples' \
	'(#pragma|_Pragma)' \
	'Using compilers pragma is not allowed'
rule 'lib drivers app' \
	'-DALLOW_EXPERIMENTAL_API allow_experimental_apis' \
	'Using experimental build flag for in-tree compilation'
rule 'lib drivers' \
	'\\<RTE_LOG_REGISTER\\>' \
	'Using RTE_LOG_REGISTER, prefer RTE_LOG_REGISTER_(DEFAULT|SUFFIX)'
rule 'lib drivers' \
	"rte_thread_(set_name|create_control)\\\(" \
	'Prefer rte_thread_(set_prefixed_name|create_internal_control)'
# The suites of the driver-facing API are driver code (built with the
# internal API, see app/test-ism/meson.build): they test those headers; the
# rawdev adapter's suite takes rawdev ids as other rawdev drivers would.
rule 'app examples' \
	'include.*_driver\\.h include.*_pmd\\.h' \
	'Using driver specific headers in applications' \
	'^app/test-ism/test_(pmd_api|pci_protocol|rawdev)\.c$'
rule 'doc' \
	'::[[:space:]]*[^[:space:]]*\\.svg' \
	'Using explicit .svg extension instead of .*'
rule 'doc' \
	'http://.*dpdk.org' \
	'Using non https link to dpdk.org'
# DPDK 22.11's rule that 25.11 dropped (C99 loop variables are allowed
# there now); kept: the tree still builds against 22.11's style.
rule '.' \
	'for[[:space:]]*\\((char|u?int|unsigned|s?size_t)' \
	'Declaring a variable inside for()'

# 25.11's check_aligned_attributes() and check_packed_attributes(): the
# alignment macros only right after struct or union (members and variables
# take C11 alignas), __rte_packed_begin only after struct, union or an
# alignment, and in pairs with __rte_packed_end.
attr_files() {
	grep -vE '^(config/|\.deps/|build)' "$tmp/files" | grep -E '\.(c|h)$' |
		(cd "$src" && xargs -r grep -HnE "$1" 2>/dev/null) || true
}
for tok in __rte_aligned __rte_cache_aligned __rte_cache_min_aligned; do
	bad=$(attr_files "\\<$tok\\>" |
		grep -vE "\\<(struct|union)[[:space:]]*$tok\\>" || true)
	if [ -n "$bad" ]; then
		printf '%s\n' "$bad"
		echo "Please use $tok only for struct or union types alignment."
		fails=$((fails + 1))
	fi
done
bad=$(attr_files '__rte_packed_begin' |
	grep -vE '\<(struct|union)[[:space:]]*__rte_packed_begin\>' |
	grep -vE '\<__rte_(cache_|cache_min_)?aligned(\(.*\))?[[:space:]]*__rte_packed_begin\>' ||
	true)
if [ -n "$bad" ]; then
	printf '%s\n' "$bad"
	echo "Use __rte_packed_begin only after struct, union or alignment attributes."
	fails=$((fails + 1))
fi
if [ "$(attr_files '__rte_packed_begin' | wc -l)" != \
     "$(attr_files '__rte_packed_end' | wc -l)" ]; then
	echo "__rte_packed_begin and __rte_packed_end should always be used in pairs."
	fails=$((fails + 1))
fi

if [ $fails -gt 0 ]; then
	echo "check-forbidden-tokens: $fails file(s) break DPDK's rules"
	exit 1
fi
echo "check-forbidden-tokens: $(wc -l < "$tmp/files") files, no forbidden token"
