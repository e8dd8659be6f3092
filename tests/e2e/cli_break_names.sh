#!/bin/sh
# Named event fields in batch mode: the breakpoints the issues spell out
# (`break reuse.class class=associativity sm=0`, `break reuse.access dist>=64`,
# `break coh.transition to=M`, `break coh.msg type=Inv`) stop where the raw
# a/b forms stop, print the names, and a wrong name lists the valid ones.
# (dist is capped at 4 x ways, so the dist>=64 case uses a 32-way L1.)
. "$(dirname "$0")/lib.sh"

named=$(printf 'break reuse.class class=associativity sm=0\ncontinue\nprint sim.cycles\n' |
	"$BIN" -w matmul_naive -x - 2>&1) || fail "reuse named: exit $?"
raw=$(printf 'break reuse.class b=3 sm=0\ncontinue\nprint sim.cycles\n' |
	"$BIN" -w matmul_naive -x - 2>&1) || fail "reuse raw: exit $?"
expect_contains "$named" "class=associativity at cycle"
# Both must have stopped and printed the cycle (two empty greps are not a match).
at_named=$(echo "$named" | grep 'sim.cycles = [0-9]')
at_raw=$(echo "$raw" | grep 'sim.cycles = [0-9]')
[ -n "$at_named" ] || fail "class=associativity: no sim.cycles printed: $named"
[ -n "$at_raw" ] || fail "b=3: no sim.cycles printed: $raw"
[ "$at_named" = "$at_raw" ] || fail "class=associativity and b=3 stop at different cycles ($at_named, $at_raw)"

out=$(printf 'break reuse.access dist>=64\ncontinue\n' |
	"$BIN" -w gather_random -s l1.sets=1 -s l1.ways=32 -x - 2>&1) || fail "dist: exit $?"
dist=$(echo "$out" | sed -n 's/.*reuse.access .* dist=\([0-9]*\) .*/\1/p')
[ -n "$dist" ] && [ "$dist" -ge 64 ] || fail "dist>=64 stopped at dist '$dist': $out"

out=$(printf 'break coh.transition to=M\ncontinue\nbreak coh.msg type=Inv\ncontinue\n' |
	"$BIN" -w matmul_tiled -s coherence.protocol=moesi -x - 2>&1) || fail "coh: exit $?"
expect_contains "$out" "to=M at cycle"
expect_contains "$out" "type=Inv at cycle"

out=$(printf 'break coh.transition to=Q\n' | "$BIN" -x - 2>&1) && fail "to=Q accepted"
expect_contains "$out" "bad value 'Q' for to (a number, or one of: I S E O M"
exit 0
