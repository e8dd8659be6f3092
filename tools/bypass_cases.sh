#!/bin/sh
# bypass_cases.sh: notes 004 §5.6's qualitative reference cases for a
# re-implementation of locality-driven L1 bypassing, checked on the gtx480
# preset and the built-in kernels (docs/EXPERIMENTS.md "The paper's
# reference cases on this model"). Prints markdown: one table per case with
# the measured stats and a verdict per claim.
#
#   B=build/gpustep sh tools/bypass_cases.sh
#
# Every run is `$B gtx480 -w KERNEL [-p k=v] -s l1.bypass=MODE [-s k=v ...]
# --run --stats F`. APKI / MPKI are per kilo warp instructions
# (sim.warp_insts): L2 APKI = 1000 l2.accesses / insts, DRAM MPKI =
# 1000 dram.reads / insts. "Data-store allocations" = l1.misses -
# l1.mshr_merges - l1.bypasses (misses that reserved a line; l1.misses
# counts merges and bypasses). A "mean over 15" is the mean IPC change of
# B against A over the preset and the 14 one-cycle changes of
# tools/bypass_noise_ci.sh (icnt.latency 5..11, l2.hit_latency 116..124).
# Run names and option lists are split on purpose (no spaces in names):
# shellcheck disable=SC2046,SC2086
B=${B:-build/gpustep}
T=$(mktemp -d "${TMPDIR:-/tmp}/bypass_cases.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
trap 'exit 2' INT TERM # the EXIT trap cleans up; without the exit the script would go on without its files

# run NAME KERNEL OPTIONS...: stats to $T/NAME.json (cached by NAME)
run() {
	_n=$1 _k=$2
	shift 2
	[ -f "$T/$_n.json" ] && return 0
	"$B" gtx480 -w "$_k" "$@" --run --stats "$T/$_n.json" >/dev/null 2>"$T/err" ||
		{ echo "bypass_cases: $_n ($_k $*): $(head -1 "$T/err")" >&2; rm -f "$T/$_n.json"; exit 1; }
}
# get NAME KEY: one stat of run NAME
get() { awk -v k="\"$2\":" '$1 == k { v = $2; gsub(/,/, "", v); print v + 0; exit }' "$T/$1.json"; }
# pki NAME KEY: KEY per kilo warp instruction
pki() { awk -v a="$(get "$1" "$2")" -v i="$(get "$1" sim.warp_insts)" 'BEGIN { printf "%.2f", 1000 * a / i }'; }
# chg A B: IPC change of run B against run A in %
chg() { awk -v a="$(get "$1" sim.ipc)" -v b="$(get "$2" sim.ipc)" 'BEGIN { printf "%+.3f", 100 * (b / a - 1) }'; }
# allocs NAME: data-store allocations
allocs() { echo $(($(get "$1" l1.misses) - $(get "$1" l1.mshr_merges) - $(get "$1" l1.bypasses))); }
# verdict CONDITION-AWK-EXPR: "holds" or "does not hold"
verdict() { awk "BEGIN { exit !($1) }" && echo holds || echo "**does not hold**"; }
# mean15 KERNEL "A-OPTS" "B-OPTS": mean IPC change (%) of B against A over
# the 15 timing variants and its 95 % CI, "MEAN LOW HIGH" (tools/bypass_noise_ci.sh)
mean15() {
	# shellcheck disable=SC2086 # KERNEL may carry its -p options
	BASE=$2 VARIANT=$3 SUMMARY=1 B=$B sh "$(dirname "$0")/bypass_noise_ci.sh" $1 || exit 1
}
modes() { # modes PREFIX KERNEL OPTIONS...: none, all, locality, mrpb runs PREFIX.MODE
	_p=$1 _k=$2
	shift 2
	for _m in none all locality mrpb; do run "$_p.$_m" "$_k" -s l1.bypass=$_m "$@"; done
}
case1() {
	echo "### 1. Streaming / no-reuse kernel: gather_random"
	echo
	echo "Every lane loads its own random line once: the L1 misses are compulsory (no reuse)."
	echo
	modes c1 gather_random
	echo "| mode | IPC | l1.hit_rate | l1.bypasses / l1.accesses | data-store allocations | l1.mshr_full | l1.reservation_fails |"
	echo "|---|---|---|---|---|---|---|"
	for m in none all locality mrpb; do
		printf '| %s | %s | %s | %s / %s | %s | %s | %s |\n' $m "$(get c1.$m sim.ipc)" "$(get c1.$m l1.hit_rate)" \
			"$(get c1.$m l1.bypasses)" "$(get c1.$m l1.accesses)" "$(allocs c1.$m)" "$(get c1.$m l1.mshr_full)" \
			"$(get c1.$m l1.reservation_fails)"
	done
	set -- $(mean15 gather_random "-s l1.bypass=none" "-s l1.bypass=locality")
	ln=$1 lnlo=$2
	set -- $(mean15 gather_random "-s l1.bypass=all" "-s l1.bypass=locality")
	la=$1 lalo=$2 lahi=$3
	echo
	echo "| claim | measured | verdict |"
	echo "|---|---|---|"
	echo "| nearly every access bypasses, allocations about 0 | bypasses $(get c1.locality l1.bypasses) of $(get c1.locality l1.accesses) accesses; allocations $(allocs c1.locality) (none: $(allocs c1.none)) | $(verdict "$(get c1.locality l1.bypasses) >= 0.9 * $(get c1.locality l1.accesses)") |"
	echo "| L1 hit rate < 1 % in every mode | max $(for m in none all locality mrpb; do get c1.$m l1.hit_rate; done | sort -g | tail -1) | $(verdict "$(for m in none all locality mrpb; do get c1.$m l1.hit_rate; done | sort -g | tail -1) < 0.01") |"
	echo "| MSHR-full and reservation-fail stalls collapse | l1.mshr_full $(get c1.none l1.mshr_full) → $(get c1.locality l1.mshr_full), reservation_fails $(get c1.none l1.reservation_fails) → $(get c1.locality l1.reservation_fails) | $(verdict "$(get c1.locality l1.mshr_full) + $(get c1.locality l1.reservation_fails) <= 0.25 * ($(get c1.none l1.mshr_full) + $(get c1.none l1.reservation_fails))") |"
	echo "| IPC ≥ BL (mean over 15) | locality vs none $ln % (CI low $lnlo %) | $(verdict "$lnlo >= 0") |"
	echo "| IPC about BALL (within 5 %, mean over 15) | locality vs all $la % (CI $lalo to $lahi %) | $(verdict "$la >= -5 && $la <= 5") |"
	echo
}

case2() {
	echo "### 2. Blocks referenced exactly twice / four or more times: pow2_stride"
	echo
	echo "One warp reads \`lines\` = 8 consecutive lines (\`stride\` = 32 elements = one line) \`reps\` times;"
	echo "\`-s l1.bypass_duel=false\` makes every set decoupled (the mechanism, not the duel)."
	echo
	echo "| reps | l1.accesses | l1.bypasses | l1.tag_promotes | l1.hits | expected hits 8 × max(0, reps − 3) | verdict |"
	echo "|---|---|---|---|---|---|---|"
	for r in 2 4 6; do
		run c2.$r pow2_stride -p stride=32 -p lines=8 -p reps=$r -s l1.bypass=locality -s l1.bypass_duel=false
		e=$((r > 3 ? 8 * (r - 3) : 0)) pr=$((r > 2 ? 8 : 0))
		printf '| %s | %s | %s | %s | %s | %s | %s |\n' $r "$(get c2.$r l1.accesses)" "$(get c2.$r l1.bypasses)" \
			"$(get c2.$r l1.tag_promotes)" "$(get c2.$r l1.hits)" $e \
			"$(verdict "$(get c2.$r l1.hits) == $e && $(get c2.$r l1.tag_promotes) == $pr")"
	done
	echo
}

case3() {
	echo "### 3. Long-reuse-distance stream: vws_thrash"
	echo
	echo "Each warp re-reads its own 8 lines 8 times; 48 warps × 8 lines = 384 lines per SM against 128 L1 lines,"
	echo "so a line comes back after about 384 other lines' accesses."
	echo
	modes c3 vws_thrash
	echo "| mode | IPC | l1.hit_rate | l1.bypasses | l1.duel_switches | data-store allocations |"
	echo "|---|---|---|---|---|---|"
	for m in none locality; do
		printf '| %s | %s | %s | %s | %s | %s |\n' $m "$(get c3.$m sim.ipc)" "$(get c3.$m l1.hit_rate)" \
			"$(get c3.$m l1.bypasses)" "$(get c3.$m l1.duel_switches)" "$(allocs c3.$m)"
	done
	echo
	echo "| claim | measured | verdict |"
	echo "|---|---|---|"
	echo "| those accesses are bypassed | $(get c3.locality l1.bypasses) of $(get c3.locality l1.accesses) | $(verdict "$(get c3.locality l1.bypasses) >= 0.25 * $(get c3.locality l1.accesses)") |"
	echo "| hit rate rises | $(get c3.none l1.hit_rate) → $(get c3.locality l1.hit_rate) | $(verdict "$(get c3.locality l1.hit_rate) > $(get c3.none l1.hit_rate)") |"
	echo "| filtered reuse-distance histogram moves towards 1 | not measured: the reuse-distance model (\`gpustep model\`) sees the unfiltered stream | — |"
	echo
}

case4() {
	echo "### 4. Cache-friendly kernels: matmul_naive (L1 reuse across warps), matmul_tiled, stencil2d -p n=512"
	echo
	echo "| kernel | locality vs none, mean over 15 (95 % CI) | l1.duel_switches (preset) | all vs none | mrpb vs none (mrpb l1.bypasses) | IPC ≈ BL, not below (CI high ≥ 0, mean ≥ −1 %) | BALL loses (all < −1 %) | MRPB loses somewhat (< 0) |"
	echo "|---|---|---|---|---|---|---|---|"
	for kp in matmul_naive matmul_tiled "stencil2d -p n=512"; do
		n=c4.$(echo "$kp" | tr -c 'a-z0-9\n' _)
		modes "$n" $kp
		set -- $(mean15 "$kp" "-s l1.bypass=none" "-s l1.bypass=locality")
		a=$(chg $n.none $n.all) r=$(chg $n.none $n.mrpb)
		printf '| %s | %s %% (%s to %s) | %s | %s %% | %s %% (%s) | %s | %s | %s |\n' "$kp" "$1" "$2" "$3" \
			"$(get $n.locality l1.duel_switches)" "$a" "$r" "$(get $n.mrpb l1.bypasses)" "$(verdict "$3 >= 0 && $1 >= -1")" \
			"$(verdict "$a < -1")" "$(verdict "$r < 0")"
	done
	echo
}

case5() {
	echo "### 5. Cache-insensitive kernels: reduction, transpose_tiled"
	echo
	echo "reduction loads each input word once and works in shared memory; transpose_tiled loads and stores each line once."
	echo
	echo "| kernel | none IPC | all vs none | locality vs none | mrpb vs none | all within 0.03 % of BL |"
	echo "|---|---|---|---|---|---|"
	for k in reduction transpose_tiled; do
		modes c5.$k $k
		a=$(chg c5.$k.none c5.$k.all) l=$(chg c5.$k.none c5.$k.locality) r=$(chg c5.$k.none c5.$k.mrpb)
		printf '| %s | %s | %s %% | %s %% | %s %% | %s |\n' $k "$(get c5.$k.none sim.ipc)" "$a" "$l" "$r" \
			"$(verdict "$a * $a <= 0.0009 && $l * $l <= 0.0009 && $r * $r <= 0.0009")"
	done
	echo
}

case6() {
	echo "### 6. Traffic sanity: L2 APKI and DRAM MPKI, locality against none"
	echo
	echo "| kernel | L2 APKI none → locality | DRAM MPKI none → locality | APKI ≤ BL | MPKI ≤ BL |"
	echo "|---|---|---|---|---|"
	for kp in gather_random "bfs_like -p n=16384" vws_thrash strided transpose_naive matmul_naive stencil2d matmul_tiled; do
		n=c6.$(echo "$kp" | tr -c 'a-z0-9\n' _)
		run $n.none $kp -s l1.bypass=none
		run $n.locality $kp -s l1.bypass=locality
		an=$(pki $n.none l2.accesses) al=$(pki $n.locality l2.accesses)
		dn=$(pki $n.none dram.reads) dl=$(pki $n.locality dram.reads)
		printf '| %s | %s → %s | %s → %s | %s | %s |\n' "$kp" $an $al $dn $dl \
			"$(verdict "$(get $n.locality l2.accesses) <= $(get $n.none l2.accesses)")" \
			"$(verdict "$(get $n.locality dram.reads) <= $(get $n.none dram.reads)")"
	done
	echo
}

case7() {
	echo "### 7. Stalls and footprint on low-reuse kernels"
	echo
	echo "| kernel | l1.reservation_fails none → locality | l1.mshr_full none → locality | data-store allocations none → locality | stalls fall sharply (−50 % or more) | allocations fall |"
	echo "|---|---|---|---|---|---|"
	for kp in gather_random "bfs_like -p n=16384" vws_thrash strided transpose_naive; do
		n=c6.$(echo "$kp" | tr -c 'a-z0-9\n' _)
		sn=$(($(get $n.none l1.reservation_fails) + $(get $n.none l1.mshr_full)))
		sl=$(($(get $n.locality l1.reservation_fails) + $(get $n.locality l1.mshr_full)))
		printf '| %s | %s → %s | %s → %s | %s → %s | %s | %s |\n' "$kp" \
			"$(get $n.none l1.reservation_fails)" "$(get $n.locality l1.reservation_fails)" \
			"$(get $n.none l1.mshr_full)" "$(get $n.locality l1.mshr_full)" "$(allocs $n.none)" "$(allocs $n.locality)" \
			"$(verdict "$sl <= 0.5 * $sn")" "$(verdict "$(allocs $n.locality) < $(allocs $n.none)")"
	done
	echo
}

case8() {
	echo "### 8. Baseline replacement swap (no RRIP in the model: LRU against random and FIFO)"
	echo
	echo "IPC of \`l1.bypass=none\` with \`-s l1.repl=random|fifo\` against LRU, mean over 15 (95 % CI)."
	echo
	echo "| kernel | random vs lru | fifo vs lru | within 2 % (CI inside ±2 %) |"
	echo "|---|---|---|---|"
	for kp in gather_random "bfs_like -p n=16384" vws_thrash; do
		set -- $(mean15 "$kp" "-s l1.bypass=none" "-s l1.bypass=none -s l1.repl=random")
		a=$1 alo=$2 ahi=$3
		set -- $(mean15 "$kp" "-s l1.bypass=none" "-s l1.bypass=none -s l1.repl=fifo")
		printf '| %s | %s %% (%s to %s) | %s %% (%s to %s) | %s |\n' "$kp" "$a" "$alo" "$ahi" "$1" "$2" "$3" \
			"$(verdict "$alo >= -2 && $ahi <= 2 && $2 >= -2 && $3 <= 2")"
	done
	echo
}

case9() {
	echo "### 9. Capacity: 16 KB (l1.sets = 32) against 128 KB (-s l1.sets=256)"
	echo
	echo "| kernel | locality vs none, 16 KB | locality vs none, 128 KB | gain narrows | 16 KB locality vs 128 KB none | near (within 5 %) |"
	echo "|---|---|---|---|---|---|"
	for kp in gather_random "bfs_like -p n=16384" vws_thrash; do
		n=c6.$(echo "$kp" | tr -c 'a-z0-9\n' _)
		for m in none locality; do
				run $n.$m.big $kp -s l1.bypass=$m -s l1.sets=256
		done
		g=$(chg $n.none $n.locality) gb=$(chg $n.none.big $n.locality.big) x=$(chg $n.none.big $n.locality)
		printf '| %s | %s %% | %s %% | %s | %s %% | %s |\n' "$kp" "$g" "$gb" "$(verdict "$gb < $g")" "$x" \
			"$(verdict "$x >= -5")"
	done
	echo
}

case10() {
	echo "### 10. Parameter sweeps (IPC change against the defaults: 8 tag ways, T = 2)"
	echo
	echo "gather_random and bfs_like are the low-reuse kernels (a block referenced once, or a few times);"
	echo "vws_thrash re-references each block 8 times (long reuse distance, not low reuse) and is a contrast."
	echo "\`duel off\` = \`-s l1.bypass_duel=false\`: every set decoupled, so the change acts on the filter alone."
	echo
	echo "| kernel | 16 tag ways | 12 tag ways (384 entries) | T = 1 | T = 3 | T = 4 | 16 vs 8 about 2 % (within 3 %) | 384 no better (≤ +1 %) | T = 2 within 2 % of the best T |"
	echo "|---|---|---|---|---|---|---|---|---|"
	for kd in "gather_random|" "bfs_like -p n=16384|" "bfs_like -p n=16384|-s l1.bypass_duel=false" \
		"vws_thrash|" "vws_thrash|-s l1.bypass_duel=false"; do
		kp=${kd%%|*} d=${kd#*|}
		n=c10.$(echo "$kd" | tr -c 'a-z0-9\n' _)
		run $n $kp -s l1.bypass=locality $d
		for o in w12:tag_ways=12 w16:tag_ways=16 t1:threshold=1 t3:threshold=3 t4:threshold=4; do
				run $n.${o%%:*} $kp -s l1.bypass=locality $d -s l1.bypass_${o#*:}
		done
		w16=$(chg $n $n.w16) w12=$(chg $n $n.w12)
		t1=$(chg $n $n.t1) t3=$(chg $n $n.t3) t4=$(chg $n $n.t4)
		best=$(printf '%s\n' 0 "$t1" "$t3" "$t4" | sort -g | tail -1)
		printf '| %s %s | %s %% | %s %% | %s %% | %s %% | %s %% | %s | %s | %s |\n' "$kp" "${d:+(duel off)}" "$w16" "$w12" \
			"$t1" "$t3" "$t4" "$(verdict "$w16 * $w16 <= 9")" "$(verdict "$w12 <= 1")" "$(verdict "$best <= 2")"
	done
	echo
}

case11() {
	echo "### 11. Aging"
	echo
	echo "Not a kernel-level stat: the unit tests \`bypass_aging_per_replacement\` and the trace test before it"
	echo "(tests/unit/test_bypass.c) follow one untouched tag losing 1 (l1.bypass_aging = 1) or 2 RC per"
	echo "replacement in its set until it is the LFU victim."
	echo
}

case1
case2
case3
case4
case5
case6
case7
case8
case9
case10
case11
