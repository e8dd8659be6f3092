#!/bin/sh
# Coherence in the engine (batch mode): break on a transition to M (to=M) for
# one address, read the directory entry with `info line`, print the table;
# with an FRC, victims with L1 copies are invalidated from the FRC entries.
. "$(dirname "$0")/lib.sh"

out=$(printf 'break coh.transition to=M addr=0x10010400\ncontinue\ninfo line 0x10010400\nprotocol\ncheck\n' |
	"$BIN" teaching -w vecadd -s coherence.protocol=moesi -x - 2>&1) || fail "exit $?"
expect_contains "$out" "coh.transition sm=1 addr=0x10010400 from=IM_D to=M"
expect_contains "$out" "state M"
expect_contains "$out" "directory (moesi): state X  owner sm1"
expect_contains "$out" "> IM_D  DataX    -> M"
# With an FRC: the victims' invalidations leave from the FRC entries.
out=$(printf 'run\ncheck\nprint frc.inv_victims coh.errors\n' |
	"$BIN" teaching -w matmul_tiled -s coherence.protocol=moesi -s l2.frc.entries=8 -x - 2>&1) || fail "frc: exit $?"
expect_contains "$out" "frc.inv_victims = 608"
expect_contains "$out" "coh.errors = 0"
expect_contains "$out" "invariants hold"
exit 0
