#!/bin/sh
# coherence.check_values (docs/COHERENCE.md "Data values"): the b2b trace
# pair under NMOESI without the kernel-boundary release/acquire reads a stale
# copy: --run stops at the first violation, prints it and exits 1; a batch
# `continue` stops there like a breakpoint and `check` reports it; with the
# default flush the run is clean and exits 0.
. "$(dirname "$0")/lib.sh"

T="$(dirname "$0")/../traces/b2b/kernelslist.g"
out=$("$BIN" --run -w "$T" -s coherence.protocol=nmoesi -s coherence.kernel_boundary=none \
	-s coherence.check_values=true 2>&1)
rc=$?
[ "$rc" = 1 ] || fail "none: expected exit 1, got $rc"
expect_contains "$out" "gpustep: coh.value_violation at cycle"
expect_contains "$out" "before the boundary"
out=$(printf 'continue\ncheck\nprint coh.value_violations\n' |
	"$BIN" -w "$T" -s coherence.protocol=nmoesi -s coherence.kernel_boundary=none -s coherence.check_values=true -x - 2>&1)
expect_contains "$out" "coh.value_violation at cycle"
expect_contains "$out" "data-value violation"
out=$("$BIN" --run -w "$T" -s coherence.protocol=nmoesi -s coherence.check_values=true --stats - 2>&1) ||
	fail "flush: exit $?"
expect_contains "$out" '"coh.value_violations": 0'
exit 0
