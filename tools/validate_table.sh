#!/bin/sh
# The results table of docs/VALIDATION.md, from `gpustep validate --json`:
#   B=build/gpustep sh tools/validate_table.sh [PRESET...]   (default qv100 titanv gtx480)
B=${B:-build/gpustep}
[ $# -gt 0 ] || set -- qv100 titanv gtx480
T=$(mktemp -d "${TMPDIR:-/tmp}/validate_table.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
"$B" validate "$@" --json "$T/v.json" >/dev/null || exit 1
python3 - "$T/v.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
print("| preset | metric | gpustep | published | ratio | verdict |")
print("| --- | --- | ---: | ---: | ---: | --- |")
for r in d["rows"]:
    pub = r.get("published")
    peak = " (peak)" if pub is not None and "peak" in (r.get("source") or "") else ""
    pubs = ("%g" % pub) + peak if pub is not None else ""
    ratio = "%.2f" % r["ratio"] if r.get("ratio") is not None else ""
    v = r.get("verdict") or ""
    if v == "-":
        v = ""
    if r.get("reason") and v.startswith("OUT"):
        v = "OUT (known, below)"
    print("| %s | `%s` | %.1f | %s | %s | %s |" % (r["machine"], r["metric"], r["gpustep"], pubs, ratio, v))
PY
