#!/bin/sh
# DRAM input checks and DRAMSim3 configs from the command line (issues 20, 25,
# 27): every bad trace line, mapping and .ini value exits 2 naming the line or
# key, never a crash; a .ini runs in trace mode and in a machine config.
. "$(dirname "$0")/lib.sh"

bad() { # WHY EXPECTED-TEXT ARGS...: exit 2 and the text on stderr
	why=$1 want=$2
	shift 2
	"$BIN" "$@" >/dev/null 2>"$E2E_TMP/err"
	rc=$?
	[ $rc = 2 ] || fail "$why: exit $rc, expected 2 ($(cat "$E2E_TMP/err"))"
	expect_contains "$(cat "$E2E_TMP/err")" "$want"
}
T=$E2E_TMP
# issue 25 / 27: cycles the model cannot represent, with the line number
printf '0x0 READ 0\n0x80 READ 12303978297164269197\n' >"$T/big.trc"
bad "cycle near 2^64" "big.trc:2: cycle above 281474976710656" --dram-trace "$T/big.trc" --run
printf '0x0 READ 0\n0x80 READ 18446744073709551615\n' >"$T/max.trc"
bad "cycle 2^64-1" "max.trc:2: cycle above" --dram-trace "$T/max.trc" --run
# issue 25: a mapping field wider than the address was SIGFPE
bad "col[40]:col[40]" "dram.mapping: the pieces of 'col' have 80 bits" --check-config -s mem.model=dram \
	-s 'dram.mapping=row:rank:bank:ch:col[40]:col[40]'
# trace parsing as DRAMSim3 reads it
printf '0x0 READ\n' >"$T/nocyc.trc"
bad "no cycle" "nocyc.trc:1: a DRAMSim line needs a cycle" --dram-trace "$T/nocyc.trc" --run
printf '0x0 READ 0\n\000\000\n' >"$T/nul.trc"
bad "NUL bytes" "nul.trc:2: NUL byte at column 1" --dram-trace "$T/nul.trc" --run
printf '4000 READ 0\n0100 WRITE 2\n' >"$T/hex.trc"
"$BIN" --dram-trace "$T/hex.trc" --stats "$T/hex.json" >/dev/null || fail "hex trace: exit $?"
expect_contains "$(cat "$T/hex.json")" '"dram.requests": 2'
# addresses beyond the capacity: refused, or wrapped when asked
printf '0x0 READ 0\n0x10000000 READ 1\n' >"$T/oor.trc"
bad "beyond capacity" "oor.trc:2: address 0x10000000 is beyond the DRAM capacity" --dram-trace "$T/oor.trc" --run
out=$("$BIN" --dram-trace "$T/oor.trc" --run -s dram.trace_wrap=true) || fail "trace_wrap: exit $?"
expect_contains "$out" "1 addresses at or above the DRAM capacity wrapped"
# the full-system model: a workload wider than the DRAM is a config error
bad "span" "workload vecadd: addresses 0x10000000..0x10017fff span 98304 bytes" --run -w vecadd -s dram.rows=1
# DRAMSim3 .ini: a preset in trace mode (DRAM cycles, DRAMSim3's controller)
printf '0x0 READ 0\n0x40 READ 16\n0x80 WRITE 32\n' >"$T/d.trc"
"$BIN" --dram-trace "$T/d.trc" dram/ddr4-3200.ini --stats "$T/d.json" >/dev/null 2>"$T/err" || fail "ini trace: exit $?"
expect_contains "$(cat "$T/d.json")" '"dram.read_latency_mean_dram": '
expect_contains "$(cat "$T/d.json")" '"dram.requests": 3'
printf '[timing]\ntXS = 5\n[power]\nVDD = 1.2\n' >"$T/unused.ini"
"$BIN" --check-config "$T/unused.ini" >/dev/null 2>"$T/err" || fail "unused keys: exit $?"
expect_contains "$(cat "$T/err")" "keys gpustep does not use (not modelled, or not read by DRAMSim3 either): [timing] tXS, [power] VDD"
out=$("$BIN" --dump-config dram/gddr5-7000.ini 2>/dev/null)
expect_contains "$out" '"queue_model": "per_bank"'
expect_contains "$out" '"t32AW": 323'
# "dram": {"ini": ...} in a machine config; later keys override
printf '{ "extends": "teaching", "dram": { "ini": "dram/hbm2-2000.ini", "read_queue": 48 } }\n' >"$T/m.json"
out=$("$BIN" --dump-config "$T/m.json" 2>/dev/null) || fail "dram.ini: exit $?"
expect_contains "$out" '"tck_ps": 1000'
expect_contains "$out" '"read_queue": 48'
# a bad .ini names file, line and key
printf '[timing]\nCL = fast\n' >"$T/bad.ini"
bad "bad ini value" "bad.ini:2: [timing] CL: expected an integer" --check-config "$T/bad.ini"
printf '{ "dram": { "ini": 5 } }\n' >"$T/badini.json"
bad "dram.ini not a path" "dram.ini: expected the path of a DRAMSim3 .ini file" --check-config "$T/badini.json"
# trace workloads too (.traceg, kernel lists, .trc): lines a capacity apart (64 KiB with dram.rows=2)
printf 'blocksize: 32 1 1\n0 0 4096 4\n1 0 69632 4\n' >"$T/two.trc"
bad "trc span" "workload two.trc: two.trc global 0x1000..0x1107f spans 65664 bytes, more than the DRAM capacity (65536 bytes" \
	--run -w "$T/two.trc" -s dram.rows=2
"$BIN" --run -w "$T/two.trc" -s dram.rows=4 >/dev/null 2>"$T/err" || fail "trc on a DRAM that holds it: $(cat "$T/err")"
"$BIN" --run -w "$T/two.trc" -s dram.rows=2 -s mem.model=fixed >/dev/null 2>"$T/err" || fail "fixed memory: $(cat "$T/err")"
bad "kernel list span" "workload kernelslist.g: kernel-1.traceg global 0x7f0000000000.." \
	--run -w "$ROOT/tests/traces/multi/kernelslist.g" -s dram.rows=2
exit 0
