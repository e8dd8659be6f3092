#!/bin/sh
# gpustep model --semantics reference: bucket for bucket the histogram and
# the printed miss breakdown of the reference implementation
# (tue-es/gpu-cache-model, built outside this repository and run on the
# same .trc files, 64 MSHRs, latency 100, sigma 0; the figures below were
# measured with it, tools/rd_ref_table.sh) on the seven traces of
# tools/rd_traces.sh, 16 KB and 48 KB. Also the --json keys scripts rely on,
# gpustep semantics' in-flight bin, the prompt command and bad options.
. "$(dirname "$0")/lib.sh"

sh tools/rd_traces.sh "$E2E_TMP/trc" || fail "rd_traces.sh"

# hist[0..15],>=16,inf  printout (compulsory + capacity + associativity + latency + mshr = misses)|hits
cat >"$E2E_TMP/expected" <<'EOF'
stream 16 0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,512 512 + 0 + 0 + 0 + 0 = 512|0
stream 48 0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,512 512 + 0 + 0 + 0 + 0 = 512|0
strided 16 128,1920,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,2048 2048 + 0 + 0 + 0 + 0 = 2048|2048
strided 48 2048,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,2048 2048 + 0 + 0 + 0 + 0 = 2048|2048
transpose 16 1952,1952,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,192 128 + 0 + 0 + 64 + 0 = 192|3904
transpose 48 3904,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,192 128 + 0 + 0 + 64 + 0 = 192|3904
gather 16 1162,1015,885,748,499,405,392,430,400,367,364,351,310,284,312,262,2806,1336 1213 + 4986 + 0 + 123 + 1697 = 8019|4309
gather 48 1735,1490,1275,1072,830,733,573,519,468,459,342,340,302,252,196,172,197,1373 1213 + 3247 + 0 + 160 + 0 = 4620|7708
wide 16 0,0,0,0,2,1,3,5,8,4,9,3,4,6,5,10,196,4864 4864 + 254 + 0 + 0 + 0 = 5118|2
wide 48 8,6,28,1,3,5,1,3,5,12,14,4,3,2,3,6,152,4864 4864 + 204 + 0 + 0 + 0 = 5068|52
stencil 16 521,112,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,135 128 + 0 + 0 + 7 + 0 = 135|633
stencil 48 633,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,135 128 + 0 + 0 + 7 + 0 = 135|633
matmul 16 6657,1459,122,8,816,2698,1304,0,0,0,0,0,0,0,0,0,0,3320 256 + 4002 + 0 + 3064 + 0 = 7322|9062
matmul 48 11893,962,168,41,0,0,0,0,0,0,0,0,0,0,0,0,0,3320 256 + 0 + 0 + 3064 + 0 = 3320|13064
EOF

# the value of "key" in the JSON (numbers; an array's text without brackets)
jv() { sed -n "s/^  \"$1\": \\[*\\([^],]*\\(, [0-9]*\\)*\\)\\]*,*\$/\\1/p" "$2" | tr -d ' '; }

while read -r t kb hist rep; do
	extra=""
	[ "$kb" = 48 ] && extra="-s l1.sets=64 -s l1.ways=6"
	# shellcheck disable=SC2086
	out=$("$BIN" model gtx480 -w "$E2E_TMP/trc/$t.trc" $extra --threads 0 --lat-sigma 0 --no-sim --hist-cap 16 \
		--semantics reference --json "$E2E_TMP/o.json") || fail "$t $kb: exit $?"
	got="$(jv hist "$E2E_TMP/o.json"),$(jv never_seen "$E2E_TMP/o.json")"
	[ "$got" = "$hist" ] || fail "$t $kb KB: histogram $got, the reference implementation $hist"
	line=$(printf '%s\n' "$out" | sed -n 's/^reference report .*, misses \(.*\) (compulsory.*hits \([0-9]*\),.*/\1|\2/p')
	[ "$line" = "$rep" ] || fail "$t $kb KB: printout $line, the reference implementation $rep"
	[ "$(jv in_flight "$E2E_TMP/o.json")" = 0 ] || fail "$t $kb: reference semantics has no in-flight bin"
done <"$E2E_TMP/expected"

# the JSON keys scripts rely on, and their sums (gpustep semantics)
"$BIN" model gtx480 -w "$E2E_TMP/trc/transpose.trc" --threads 0 --lat-sigma 0 --no-sim --no-ablation \
	--json "$E2E_TMP/g.json" >"$E2E_TMP/g.txt" || fail "gpustep semantics: exit $?"
for k in hist in_flight never_seen accesses misses miss_rate classes; do
	grep -q "^  \"$k\": " "$E2E_TMP/g.json" || fail "JSON key $k missing"
done
for k in compulsory capacity associativity latency mshr; do
	grep "^  \"classes\": " "$E2E_TMP/g.json" | grep -q "\"$k\": [0-9]" || fail "classes.$k missing"
done
acc=$(jv accesses "$E2E_TMP/g.json")
fly=$(jv in_flight "$E2E_TMP/g.json")
sum=$(echo "$(jv hist "$E2E_TMP/g.json"),$(jv never_seen "$E2E_TMP/g.json"),$fly" | tr ',' '\n' | awk '{ s += $1 } END { print s }')
[ "$sum" = "$acc" ] || fail "hist + never_seen + in_flight = $sum, accesses $acc"
[ "$acc" = 4096 ] && [ "$fly" = 3968 ] || fail "transpose (gpustep): $acc accesses, $fly in flight"
expect_contains "$(cat "$E2E_TMP/g.txt")" "inf fly         3968"
expect_contains "$(cat "$E2E_TMP/g.txt")" "model histogram  reuse distance within the set (hit iff d < 4 ways), gpustep semantics"

# a negative ablation term is shown as 0 with a note (gather: unlimited MSHRs miss more)
out=$("$BIN" model gtx480 -w "$E2E_TMP/trc/gather.trc" --threads 0 --lat-sigma 0 --no-sim --no-hist) || fail "gather: exit $?"
expect_contains "$out" "note: unlimited MSHRs give"
case "$out" in *"mshr -"*) fail "negative mshr term printed" ;; esac

# at the prompt, in batch mode
printf 'model --semantics reference --no-sim\n' >"$E2E_TMP/m.gps"
out=$("$BIN" gtx480 -w "$E2E_TMP/trc/stencil.trc" -x "$E2E_TMP/m.gps" 2>&1) || fail "batch: exit $?"
expect_contains "$out" "reference semantics"
expect_contains "$out" "reference report accesses 768, misses 128 + " # sigma 5 at the prompt: 128 compulsory lines either way

# bad options: exit 2 with the reason
"$BIN" model gtx480 -w vecadd --semantics paper >/dev/null 2>"$E2E_TMP/err"
[ $? = 2 ] || fail "--semantics paper: expected exit 2"
expect_contains "$(cat "$E2E_TMP/err")" "--semantics: expected gpustep or reference"
"$BIN" model gtx480 -w vecadd --hist-cap 5000 >/dev/null 2>"$E2E_TMP/err"
[ $? = 2 ] || fail "--hist-cap 5000: expected exit 2"
expect_contains "$(cat "$E2E_TMP/err")" "--hist-cap: expected 1 to 4096 bins, got '5000'"
"$BIN" model gtx480 -w vecadd --json "$E2E_TMP/no/such/dir.json" >/dev/null 2>"$E2E_TMP/err"
[ $? = 2 ] || fail "--json into a missing directory: expected exit 2"
expect_contains "$(cat "$E2E_TMP/err")" "--json $E2E_TMP/no/such/dir.json: No such file or directory"
printf 'model --semantics x\n' >"$E2E_TMP/bad.gps"
"$BIN" -w vecadd -x "$E2E_TMP/bad.gps" >"$E2E_TMP/out" 2>&1
[ $? = 1 ] || fail "batch model --semantics x: expected exit 1"
expect_contains "$(cat "$E2E_TMP/out")" "model: --semantics: expected gpustep or reference, got 'x'"
exit 0
