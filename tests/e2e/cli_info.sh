#!/bin/sh
# cli_info.sh BIN: `info frc` and `info rf` in batch mode (-x scripts),
# checked cycle-exactly against the event log, breakpoints, `print` and
# --stats: the FRC of rx540 running l2_set_burst (entries fetching and
# swapping; the bank's l2.bankN.frc.* counters, bank 1 idle at first and
# busy by the end), an entry evicting a victim (saxpy, tiny L2, MOESI), the racetrack
# register file stopped at a shift stall, the SRAM summaries, the error cases,
# help and completion words.
. "$(dirname "$0")/lib.sh"

# run NAME ARGS...: the script $E2E_TMP/NAME.gs through gpustep -x; stdout to
# $E2E_TMP/NAME.out, stderr to $E2E_TMP/NAME.err; returns gpustep's status.
run() {
	name=$1
	shift
	"$BIN" "$@" -x "$E2E_TMP/$name.gs" >"$E2E_TMP/$name.out" 2>"$E2E_TMP/$name.err"
}

# The lines of the output of command CMD (after its "(gpustep) CMD" echo, up to
# the next prompt); the Nth time CMD appears with N > 1.
section() {
	awk -v cmd="(gpustep) $2" -v nth="${3:-1}" '
		index($0, "(gpustep) ") == 1 { on = ($0 == cmd && ++seen == nth); next }
		on' "$E2E_TMP/$1.out"
}

# check_frc OUT NTH MTH NOW: every busy entry listed by the NTH `info frc` of
# OUT agrees with the event log (the MTH `info events 4096` of OUT) at cycle NOW:
# the entry's latest frc.alloc / frc.fill / frc.swap_done / frc.free of bank 0
# gives its state (fetching / swapping / evicting / not listed), its incoming
# block (the alloc's address), its age (NOW - that event's cycle; an evicting
# entry's age restarts when its acks are in, so at most that) and its L2 set
# (the l2.miss of the block; the way once frc.swap_start chose one); and the
# busy count is the number of entries not free.
check_frc() {
	section "$1" "info events 4096" "$3" >"$E2E_TMP/ev.txt"
	section "$1" "info frc" "$2" >"$E2E_TMP/frc.txt"
	awk -v now="$4" '
		function field(k,   i) { for (i = 3; i <= NF; i++) if (index($i, k "=") == 1) return substr($i, length(k) + 2); return "" }
		FNR == NR {
			if ($1 != "cycle" || field("unit") != "0") next
			e = field("entry")
			if ($3 == "l2.miss") { l2set[field("addr")] = field("set"); next }
			if ($3 == "frc.alloc") { st[e] = "fetching"; at[e] = $2; inc[e] = field("addr"); way[e] = "-" }
			else if ($3 == "frc.fill") { st[e] = "swapping"; at[e] = $2 }
			else if ($3 == "frc.swap_start") { w = field("way"); way[e] = w < 0 ? "-" : w }
			else if ($3 == "frc.swap_done") { st[e] = "evicting"; at[e] = $2 }
			else if ($3 == "frc.free") st[e] = "free"
			next
		}
		/FRC: .* busy$/ { busy = $(NF - 1) }
		/^  \[/ {
			e = substr($1, 2, length($1) - 2)
			listed[e] = 1
			if (!(e in st)) { print "entry " e " listed but never allocated: " $0; bad = 1; next }
			if ($3 != st[e]) { print "entry " e ": state " $3 ", events say " st[e] ": " $0; bad = 1 }
			if ($4 != inc[e]) { print "entry " e ": incoming " $4 ", frc.alloc says " inc[e] ": " $0; bad = 1 }
			age = now - at[e]
			if (st[e] == "evicting" ? $6 > age : $6 != age) { print "entry " e ": age " $6 ", events say " age ": " $0; bad = 1 }
			if (st[e] != "evicting" && $8 != l2set[inc[e]] "." way[e]) {
				print "entry " e ": L2 " $8 ", events say " l2set[inc[e]] "." way[e] ": " $0; bad = 1
			}
			checked++
		}
		END {
			n = 0
			for (e in st) if (st[e] != "free") { n++; if (!(e in listed)) { print "busy entry " e " not listed"; bad = 1 } }
			if (busy != n) { print "busy " busy ", events say " n; bad = 1 }
			if (!checked) { print "no entry lines"; bad = 1 }
			exit bad
		}' "$E2E_TMP/ev.txt" "$E2E_TMP/frc.txt" || fail "info frc ($1, cycle $4) disagrees with the events: $(cat "$E2E_TMP/frc.txt")"
}

# ---- FRC: rx540, l2_set_burst, 16 entries (2 sets x 8 ways) per bank ----------
FRC="rx540 -w l2_set_burst -s l2.frc.entries=16"
cat >"$E2E_TMP/frc.gs" <<'EOF'
info frc
log frc.alloc +frc.fill +frc.swap_start +frc.swap_done +frc.free +l2.miss
break frc.all_busy
continue
info frc
print frc.allocs frc.fallbacks frc.hits_fetching frc.swaps frc.evictions l2.misses
print l2.bank0.frc.allocs l2.bank0.frc.fallbacks l2.bank0.frc.hits_fetching l2.bank0.frc.swaps l2.bank0.frc.evictions l2.bank0.misses
info events 4096
delete
break frc.swap_start
continue
continue
info frc
info events 4096
info frc 1
delete
continue
info frc
info frc 1
EOF
# shellcheck disable=SC2086
run frc $FRC --stats "$E2E_TMP/frc.json" || fail "frc script: $(cat "$E2E_TMP/frc.err")"
out=$(cat "$E2E_TMP/frc.out")
expect_contains "$out" "(gpustep) info frc
l2 bank 0 FRC: 16 entries (2 sets x 8 ways), 0 busy
  this bank: allocs 0  fallbacks 0  hits while fetching 0  swaps 0  evictions 0  share - (no misses in this bank yet)
  all banks: share - (no L2 misses yet)
  every entry is free"
# First stop: every entry fetching, the 17th miss fell back (set_full).
expect_contains "$out" "Breakpoint 1, frc.all_busy unit=0 at cycle 24 (logged in cycle 23)"
p=$(section frc "print frc.allocs frc.fallbacks frc.hits_fetching frc.swaps frc.evictions l2.misses")
v() { printf '%s\n' "$p" | sed -n "s/^$1 = //p"; }
[ "$(v frc.allocs)" = 16 ] && [ "$(v frc.fallbacks)" = 1 ] && [ "$(v l2.misses)" = 17 ] || fail "stats at the first stop: $p"
# Only bank 0 has missed so far: its counters are the machine's.
p=$(section frc "print l2.bank0.frc.allocs l2.bank0.frc.fallbacks l2.bank0.frc.hits_fetching l2.bank0.frc.swaps l2.bank0.frc.evictions l2.bank0.misses")
[ "$(v l2.bank0.frc.allocs)" = 16 ] && [ "$(v l2.bank0.frc.fallbacks)" = 1 ] && [ "$(v l2.bank0.misses)" = 17 ] ||
	fail "bank 0 stats at the first stop: $p"
expect_contains "$out" "l2 bank 0 FRC: 16 entries (2 sets x 8 ways), 16 busy
  this bank: allocs $(v l2.bank0.frc.allocs)  fallbacks $(v l2.bank0.frc.fallbacks)  hits while fetching $(v l2.bank0.frc.hits_fetching)  swaps $(v l2.bank0.frc.swaps)  evictions $(v l2.bank0.frc.evictions)  share 94.1% of $(v l2.bank0.misses) bank misses
  all banks: share 94.1% (16 allocs / 17 L2 misses)
  ENTRY      STATE     INCOMING      VICTIM          AGE  WAIT  L2 SET.WAY  INV  WB
  [0] 0.0    fetching  0x10080000    -                17     1  0.-           -  -"
# entry 0 took the first miss at cycle 7 (frc.alloc); 24 - 7 = 17.
expect_contains "$(section frc 'info events 4096')" "cycle 7 frc.alloc unit=0 addr=0x10080000 set=0 entry=0"
expect_contains "$out" "  [15] 1.7   fetching  0x10080040    -                 2     1  1.-"
check_frc frc 2 1 24
# Second frc.swap_start: entry 15's fill at 52 started its swap into L2 way 8.
expect_contains "$out" "Breakpoint 2, frc.swap_start unit=0 addr=0x10080040 set=1 entry=15 way=8 at cycle 53 (logged in cycle 52)"
expect_contains "$out" "  [15] 1.7   swapping  0x10080040    -                 1     0  1.8"
check_frc frc 3 2 53
# Bank 1 has had no misses by cycle 53: its FRC is idle and its counters are
# zero, while the machine-wide share is bank 0's.
expect_contains "$out" "(gpustep) info frc 1
l2 bank 1 FRC: 16 entries (2 sets x 8 ways), 0 busy
  this bank: allocs 0  fallbacks 0  hits while fetching 0  swaps 0  evictions 0  share - (no misses in this bank yet)
  all banks: share 37.0% (17 allocs / 46 L2 misses)
  every entry is free"
# At the end both banks have FRC traffic and differ; each bank's counters are
# --stats's l2.bankN.frc.* and sum to the machine-wide frc.*.
js() { sed -n "s/^ *\"$1\": \([0-9.e+-]*\),*$/\1/p" "$E2E_TMP/frc.json"; }
pct() { awk -v a="$1" -v m="$2" 'BEGIN { printf "%.1f", 100 * a / m }'; }
[ -n "$(js frc.allocs)" ] && [ -n "$(js l2.misses)" ] || fail "no frc.allocs / l2.misses in --stats"
[ -n "$(js l2.bank1.frc.share)" ] || fail "no l2.bank1.frc.share in --stats"
[ "$(js l2.bank1.frc.allocs)" -gt 0 ] && [ "$(js l2.bank0.frc.allocs)" != "$(js frc.allocs)" ] ||
	fail "bank 1 took no FRC misses: bank 0 $(js l2.bank0.frc.allocs), all $(js frc.allocs)"
for c in lookups allocs fallbacks hits_fetching evicting_hits fills swaps evictions; do
	[ $(($(js l2.bank0.frc.$c) + $(js l2.bank1.frc.$c))) = "$(js frc.$c)" ] ||
		fail "l2.bank0.frc.$c $(js l2.bank0.frc.$c) + l2.bank1.frc.$c $(js l2.bank1.frc.$c) != frc.$c $(js frc.$c)"
done
all="all banks: share $(pct "$(js frc.allocs)" "$(js l2.misses)")% ($(js frc.allocs) allocs / $(js l2.misses) L2 misses)"
for b in 0 1; do
	[ "$(pct "$(js l2.bank$b.frc.allocs)" "$(js l2.bank$b.misses)")" = "$(awk -v r="$(js l2.bank$b.frc.share)" 'BEGIN { printf "%.1f", 100 * r }')" ] ||
		fail "l2.bank$b.frc.share $(js l2.bank$b.frc.share) is not allocs / misses"
	[ "$b" = 0 ] && got=$(section frc 'info frc' 4) || got=$(section frc 'info frc 1' 2)
	expect_contains "$got" "l2 bank $b FRC: 16 entries (2 sets x 8 ways), 0 busy
  this bank: allocs $(js l2.bank$b.frc.allocs)  fallbacks $(js l2.bank$b.frc.fallbacks)  hits while fetching $(js l2.bank$b.frc.hits_fetching)  swaps $(js l2.bank$b.frc.swaps)  evictions $(js l2.bank$b.frc.evictions)  share $(pct "$(js l2.bank$b.frc.allocs)" "$(js l2.bank$b.misses)")% of $(js l2.bank$b.misses) bank misses
  $all
  every entry is free"
done

# ---- an entry evicting its victim: saxpy on a 2 x 2 L2 with MOESI -------------
# The victim stays in the entry until its L1 copies' acks are in; the block it
# held comes out with the entry's frc.evict_done.
EV="rx540 -w saxpy -s l2.frc.entries=16 -s l2.sets=2 -s l2.ways=2 -s coherence.protocol=moesi"
cat >"$E2E_TMP/ev.gs" <<'EOF'
log frc.alloc +frc.fill +frc.swap_start +frc.swap_done +frc.free +l2.miss +coh.msg
goto 220
info frc
info events 4096
break frc.evict_done unit=0 entry=0
continue
EOF
# shellcheck disable=SC2086
run ev $EV || fail "evicting script: $(cat "$E2E_TMP/ev.err")"
out=$(cat "$E2E_TMP/ev.out")
# INV: the one Inv sent at the swap (sm5 holds the victim) is not acked by
# cycle 220; WB: the victim is clean, nothing to write back.
expect_contains "$out" "  [0] 0.0    evicting  0x10000800    0x10001480       14     0  0.0           1  no"
expect_contains "$out" "  [1] 0.1    swapping  0x10001000    -               173     1  0.-           -  -"
expect_contains "$(section ev 'info events 4096')" "cycle 206 frc.swap_done unit=0 addr=0x10000800 set=0 entry=0 way=0"
expect_contains "$(section ev 'info events 4096')" "cycle 206 coh.msg sm=5 unit=0 addr=0x10001480 type=Inv"
expect_contains "$out" "frc.evict_done unit=0 addr=0x10001480 entry=0 at cycle"
check_frc ev 1 1 220

# ---- errors and the machine without an FRC ----------------------------------
printf 'info frc\ninfo frc 2\ninfo frc x\ninfo rf 8\ninfo nosuch\n' >"$E2E_TMP/err.gs"
run err rx540 -w l2_set_burst && fail "bad info subjects succeeded"
expect_contains "$(cat "$E2E_TMP/err.out")" "no FRC at l2 bank 0: l2.frc.entries is 0 (\`set l2.frc.entries 16\` at cycle 0 adds one)"
err=$(cat "$E2E_TMP/err.err")
expect_contains "$err" "l2 bank: expected a number from 0 to 1, got '2'"
expect_contains "$err" "l2 bank: expected a number from 0 to 1, got 'x'"
expect_contains "$err" "sm: expected a number from 0 to 7, got '8'"
expect_contains "$err" "info: unknown subject 'nosuch' (break, stats, config, sm, warp, rf, line, l2, frc, channel, bank, mshr, events, display, coalesce, stalls, duel, threads)"
expect_contains "$err" "4 commands failed"

# ---- racetrack register file, stopped at a shift stall --------------------------
# The first shift stall after cycle 400 (results are buffered by then; the
# very first stall is at cycle 2, an address-register read).
cat >"$E2E_TMP/rf.gs" <<'EOF'
step 400
log rf.shift_start
break rf.shift_stall
continue
info rf
print rf.reads rf.writes rf.shifts rf.shift_cycles rf.bank_conflicts core.stall.rf rf.wb.reads rf.wb.voided rf.wb.direct rf.wb.piggyback rf.wb.overflow
print sm*.rf.* rf.energy.total
info events 4096
EOF
run rf -w matmul_tiled -s rf.kind=racetrack -s core.scheduler=rmws || fail "rf script: $(cat "$E2E_TMP/rf.err")"
out=$(cat "$E2E_TMP/rf.out")
stop=$(grep -m1 '^Breakpoint 1, rf.shift_stall' "$E2E_TMP/rf.out")
expect_contains "$stop" "Breakpoint 1, rf.shift_stall sm=0 warp=4 unit=3 wait=10 reg=3 at cycle 419 (logged in cycle 418)"
p="$(section rf "print rf.reads rf.writes rf.shifts rf.shift_cycles rf.bank_conflicts core.stall.rf rf.wb.reads rf.wb.voided rf.wb.direct rf.wb.piggyback rf.wb.overflow")
$(section rf "print sm*.rf.* rf.energy.total")"
nj=$(awk -v f="$(v rf.energy.total)" 'BEGIN { printf "%.3f", f / 1e6 }')
# RF clock = 2 x core clock: RF cycle 838 at core cycle 419. First this SM's
# counters (sm0.rf.*), then the machine's (rf.*) with the energy.
expect_contains "$out" "(gpustep) info rf
sm 0 register file: racetrack, 16 banks x 64 entries, 4 ports (segment 16), eq3_3, 28 regs, RF cycle 838
  sm 0: reads $(v sm0.rf.reads)  writes $(v sm0.rf.writes)  shifts $(v sm0.rf.shifts) ($(v sm0.rf.shift_cycles) RF cycles)  conflicts $(v sm0.rf.bank_conflicts)
  all SMs: reads $(v rf.reads)  writes $(v rf.writes)  shifts $(v rf.shifts) ($(v rf.shift_cycles) RF cycles)  conflicts $(v rf.bank_conflicts)  rf stall cycles $(v core.stall.rf)  energy $nj nJ
  write buffer: 2 ways per bank
    sm 0: raw $(v sm0.rf.wb.reads)  void $(v sm0.rf.wb.voided)  direct $(v sm0.rf.wb.direct)  piggyback $(v sm0.rf.wb.piggyback)  overflow $(v sm0.rf.wb.overflow)
    all SMs: raw $(v rf.wb.reads)  void $(v rf.wb.voided)  direct $(v rf.wb.direct)  piggyback $(v rf.wb.piggyback)  overflow $(v rf.wb.overflow)
  warps stalled on the register file now: 0"
[ "$(v rf.shifts)" = 126 ] && [ "$(v rf.shift_cycles)" = 200 ] || fail "rf stats at the stop: $p"
# SM 0 has 68 of the 126 shifts (114 of the 200 cycles), SM 1 the rest.
[ "$(v sm0.rf.shifts)" = 68 ] && [ "$(v sm0.rf.shift_cycles)" = 114 ] && [ "$(v sm1.rf.shifts)" = 58 ] &&
	[ "$(v sm1.rf.shift_cycles)" = 86 ] && [ "$(v sm0.rf.bank_conflicts)" = 14 ] || fail "per-SM rf stats at the stop: $p"
for k in reads writes bank_conflicts wb.reads wb.overflow; do
	[ $(($(v sm0.rf.$k) + $(v sm1.rf.$k))) = "$(v rf.$k)" ] || fail "sm0.rf.$k + sm1.rf.$k != rf.$k: $p"
done
# The stalled read (warp 4, r3) is the last of bank 3's queue, behind the
# write in service and two more writes.
expect_contains "$out" "  b3   BML  8  ports 8,24,40,56  proj  8  wb 2/2 w1r3 R w0r3 R  queue 4: w4r3 W>8 d1*~11 | w3r3 W>7 d1 ~10 | w2r3 W>6 d1 ~8 | w4r3 R>8 d2 ~2"
# Bank 5 started shifting 0 -> 8 in core cycle 418 (RF cycle 836): at RF
# cycle 838 its ports have moved 2 bits (rf.shift_cycles 1).
expect_contains "$(section rf 'info events 4096')" "cycle 418 rf.shift_start sm=0 warp=4 unit=5 from=0 to=8"
expect_contains "$out" "  b5   BML  2  ports 2,18,34,50  proj  8  shifting 0>8 (6 left)  wb 0/2  queue 1: w4r5 R>8 d8*~0"
expect_contains "$out" "  b0   BML  0  ports 0,16,32,48  proj  0  wb 0/2  queue 0"
expect_contains "$out" "  queued requests: 7 (in 3 of 16 banks); write buffer: 8 of 32 entries in use"
[ "$(section rf 'info rf' | grep -c '^  b[0-9]')" = 16 ] || fail "not one line per bank: $(section rf 'info rf')"

# ---- SRAM: the free operand path and a timed SRAM -------------------------------
printf 'step 400\ninfo rf\nprint rf.reads rf.writes\nprint sm0.*\n' >"$E2E_TMP/sram.gs"
run sram -w matmul_tiled || fail "sram script: $(cat "$E2E_TMP/sram.err")"
p=$(section sram "print rf.reads rf.writes")
# The free operand path counts machine-wide only: no sm line, no sm*.rf.* stats.
expect_contains "$(cat "$E2E_TMP/sram.out")" "(gpustep) info rf
sm 0 register file: sram, 16 banks x 64 entries, free operand path (rf.sram_cycles 0: no banks or arbitration modelled)
  all SMs: reads $(v rf.reads)  writes $(v rf.writes)  conflicts 0  rf stall cycles 0  energy "
expect_contains "$(cat "$E2E_TMP/sram.out")" " nJ
  warps stalled on the register file now: 0
(gpustep) print"
expect_contains "$(section sram 'print sm0.*')" "sm0.insts = "
expect_not_contains "$(section sram 'print sm0.*')" ".rf."
# A timed SRAM (2 RF cycles per access) stopped at its first bank conflict:
# warp 0's r1 found one request ahead in bank 1 in core cycle 74; at RF cycle
# 150 that one is done and r1 is in service after waiting 2 RF cycles. Only
# banks with requests are listed, with no racetrack fields. (The SM's earlier
# reads include its warps' address registers, r8 of `ld A`.)
printf 'break rf.bank_conflict\ncontinue\ninfo rf\n' >"$E2E_TMP/sram2.gs"
run sram2 -w matmul_tiled -s rf.sram_cycles=2 || fail "timed sram script: $(cat "$E2E_TMP/sram2.err")"
out=$(cat "$E2E_TMP/sram2.out")
expect_contains "$out" "Breakpoint 1, rf.bank_conflict sm=0 warp=0 unit=1 ahead=1 reg=1 at cycle 75 (logged in cycle 74)"
expect_contains "$out" "(gpustep) info rf
sm 0 register file: sram, 16 banks x 64 entries, 2 RF cycles per access, 28 regs, RF cycle 150
  sm 0: reads 10  writes 1  conflicts 1
  all SMs: reads 18  writes 1  conflicts 1  rf stall cycles 0  energy 4.134 nJ
  warps stalled on the register file now: 0
  b1   queue 1: w0r1 R*~2
  queued requests: 1 (in 1 of 16 banks)"
expect_not_contains "$out" "BML"

# ---- help and completion words -----------------------------------------------
h=$(printf 'help info\n' | "$BIN" --batch -) || fail "help info"
expect_contains "$h" "info rf [N]       an SM's register file"
expect_contains "$h" "info frc [N]      an L2 bank's FRC"
expect_contains "$h" "Example: info frc 0"
expect_contains "$h" "usage: info [SUBJECT [ARGS]]"

# ---- info mshr on a sectored L1 (titanv): an entry per line and sector set -----
out=$(printf 'step 300\ninfo mshr\n' | "$BIN" titanv -w matmul_naive -p n=64 --batch - 2>&1) || fail "titanv info mshr: $out"
# (ages 34/35 with l2.when_busy = nack, before titanv queued at its L2; entries
# 2/3 of 0x10004100 at ages 12/13 before its 4 schedulers and 100-cycle DRAM stage:
# now the first wave's entries still wait at cycle 300)
# (its source's LRR, 512 MSHRs and timing since 2026-12-06 reorder the file:
# the entries are matched by line and sectors, not by slot and age)
expect_contains "$out" "0x10004000  sectors 0  merged 8  age"
expect_contains "$out" "0x10004000  sectors 1  merged 8  age"
# ---- info: the scheduler and the CTA dispatch used (core.cta_dispatch alone) -----
out=$(printf 'info\nrun\nprint core.cta_dispatch_serial\n' | "$BIN" -w stencil2d -s core.scheduler=vws --batch - 2>&1) || fail "info vws: $out"
expect_contains "$out" "warps     scheduler vws, CTA dispatch round_robin"
expect_contains "$out" "core.cta_dispatch_serial = 0"
out=$(printf 'info\nrun\nprint core.cta_dispatch_serial\n' | "$BIN" -w stencil2d -s core.scheduler=gto -s core.cta_dispatch=serial --batch - 2>&1) || fail "info gto serial: $out"
expect_contains "$out" "warps     scheduler gto, CTA dispatch serial"
expect_contains "$out" "core.cta_dispatch_serial = 1"
exit 0
