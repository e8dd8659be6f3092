#!/bin/sh
# Coherence in the engine (batch mode): break on a transition to M (b=4) for
# one address, read the directory entry with `info line`, print the table.
. "$(dirname "$0")/lib.sh"

out=$(printf 'break coh.transition b=4 addr=0x10010400\ncontinue\ninfo line 0x10010400\nprotocol\ncheck\n' |
	"$BIN" teaching -w vecadd -s coherence.protocol=moesi -x - 2>&1) || fail "exit $?"
expect_contains "$out" "coh.transition sm=1 addr=0x10010400 a=8(IM_D) b=4(M)"
expect_contains "$out" "state M"
expect_contains "$out" "directory (moesi): state X  owner sm1"
expect_contains "$out" "> IM_D  DataX    -> M"
out=$("$BIN" teaching -w vecadd -s coherence.protocol=si -s l2.frc.entries=8 --run 2>&1)
[ $? = 2 ] || fail "si with an FRC: expected exit 2"
expect_contains "$out" "not wired with the FRC"
exit 0
