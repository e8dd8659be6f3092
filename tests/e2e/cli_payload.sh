#!/bin/sh
# icnt.payload on the gtx480 preset (docs/MODEL.md "Crossbar payload"): one
# warp's load that skips the L1 (l1.bypass = all) gets back a header plus its
# coalescing segment with `segment` (the preset's default) and a header plus
# the whole line with `line`; a store sends the same. Expected flits come
# from the preset's icnt.flit_bytes and l1.line and the segment rule
# (coalesce.h), not from a run:
#   8 lanes x 4 B from byte 0          -> chunk 0            -> 32 B
#   16 lanes x 4 B from byte 64        -> chunks 2-3         -> 64 B
#   2 lanes x 4 B at bytes 0 and 96    -> chunks 0 and 3     -> 128 B
#   2 lanes x 1 B at bytes 0 and 96    -> 32 B segments      -> 2 x 32 B
. "$(dirname "$0")/lib.sh"
T=$E2E_TMP

"$BIN" gtx480 --dump-config >"$T/cfg.json" || fail "dump-config"
eval "$(python3 -c '
import json, sys
c = json.load(open(sys.argv[1]))
print("FB=%d LINE=%d PAYLOAD=%s L2SEC=%d" % (c["icnt"]["flit_bytes"], c["l1"]["line"], c["icnt"]["payload"], c["l2"]["sector"]))' "$T/cfg.json")"
[ "$PAYLOAD" = segment ] || fail "gtx480: icnt.payload is $PAYLOAD, not segment"
[ "$L2SEC" = 0 ] || fail "gtx480: sectored L2 ($L2SEC), the segment rule would not apply"

# kernel NAME THREADS ELEM STMT: a one-warp kernel file
kernel() {
	cat >"$T/$1.json" <<EOF
{"kernel": "$1", "grid": [1], "block": [$2], "arrays": {"A": {"elem": $3, "len": 4096}}, "nregs": 4,
 "body": ["$4"]}
EOF
}
# stat FILE KEY
stat() { stats_num "$1" "$2"; }
# check NAME DIR SEGMENT_BYTES: DIR req (store) or reply (load) flits of
# kernel NAME with both payloads
check() {
	for p in segment line; do
		# l1i.enabled=false: the preset's instruction fetch would add the
		# code line's request and reply packets to the warp's own
		"$BIN" gtx480 -w "$T/$1.json" -s l1.bypass=all -s icnt.payload=$p -s l1i.enabled=false --run --stats "$T/s.json" >/dev/null \
			2>"$T/err" || fail "$1 $p: exit $? ($(cat "$T/err"))"
		[ "$(stat "$T/s.json" icnt.$2_packets)" = 1 ] || fail "$1 $p: not one $2 packet"
		bytes=$LINE
		[ $p = segment ] && bytes=$3
		want=$((1 + (bytes + FB - 1) / FB))
		got=$(stat "$T/s.json" icnt.$2_flits)
		[ "$got" = "$want" ] || fail "$1 $p: $2 flits $got != 1 header + $bytes B / $FB B = $want"
	done
}

kernel ld8 8 4 "ld A[tid] -> r1"
kernel st8 8 4 "st A[tid]"
kernel ld16 16 4 "ld A[tid + 16] -> r1"
kernel st16 16 4 "st A[tid + 16]"
kernel ld03 2 4 "ld A[tid * 24] -> r1"
kernel st03 2 4 "st A[tid * 24]"
kernel ldb 2 1 "ld A[tid * 96] -> r1"
kernel stb 2 1 "st A[tid * 96]"
check ld8 reply 32
check st8 req 32
check ld16 reply 64
check st16 req 64
check ld03 reply 128
check st03 req 128
check ldb reply 64
check stb req 64
echo "ok"
