#!/bin/sh
# tools/layers.sh fails on what it exists to catch: an include that points up
# (named by file and line), a stale line of tools/layers.allow, a call that
# points up, and a call a folder is forbidden to make (an observer called
# from the caches instead of through a probe). The tree is copied (sources
# only), so the real one is never touched.
. "$(dirname "$0")/lib.sh"

t=$E2E_TMP/tree
mkdir -p "$t"
for d in tools engine views tui cli load export session sweep lesson; do
	find "$d" -name '*.[ch]' -o -name 'layers.*' | while read -r f; do
		mkdir -p "$t/$(dirname "$f")"
		cp "$f" "$t/$f"
	done
done

# The copy as it is passes (includes only: no objects).
out=$(sh tools/layers.sh --root "$t" 2>&1) || fail "clean copy: $out"
expect_contains "$out" "0 violations"

# An upward include: the base's util.h including the machine.
printf '#include "machine/sim_mem.h"\n' >>"$t/engine/sim/util.h"
line=$(wc -l <"$t/engine/sim/util.h")
out=$(sh tools/layers.sh --root "$t" 2>&1) && fail "an upward include passed: $out"
expect_contains "$out" "engine/sim/util.h:$line: includes \"machine/sim_mem.h\""
expect_contains "$out" "engine/machine is not below engine/sim"
cp engine/sim/util.h "$t/engine/sim/util.h"

# A sideways include between front-end folders not in the allowed order.
printf '#include "sweep/sweep.h"\n' >>"$t/load/loader.h"
out=$(sh tools/layers.sh --root "$t" 2>&1) && fail "a sideways include passed: $out"
expect_contains "$out" "load/loader.h:"
cp load/loader.h "$t/load/loader.h"

# Calls, from objects: a two-folder tree where the lower folder calls up,
# and a forbidden prefix.
c=$E2E_TMP/calls
mkdir -p "$c/tools" "$c/engine/lo" "$c/engine/hi" "$c/b/engine/lo" "$c/b/engine/hi"
cp tools/layers.sh "$c/tools/"
printf 'engine/lo\nengine/hi\nforbid engine/hi obs_\n' >"$c/tools/layers.conf"
printf 'void hi_fn(void);\nvoid obs_tap(void);\nvoid lo_fn(void) { hi_fn(); }\nvoid obs_tap(void) {}\n' >"$c/engine/lo/lo.c"
printf 'void lo_fn(void);\nvoid obs_tap(void);\nvoid hi_fn(void) { lo_fn(); obs_tap(); }\n' >"$c/engine/hi/hi.c"
cc -c -o "$c/b/engine/lo/lo.o" "$c/engine/lo/lo.c" || fail "cc lo.c"
cc -c -o "$c/b/engine/hi/hi.o" "$c/engine/hi/hi.c" || fail "cc hi.c"
out=$(sh tools/layers.sh --root "$c" --objs "$c/b" 2>&1) && fail "an upward call passed: $out"
expect_contains "$out" "engine/lo/lo.c: calls hi_fn(), but engine/hi is not below engine/lo"
expect_contains "$out" "engine/hi/hi.c: calls obs_tap(), but engine/hi may not call obs_*"
expect_not_contains "$out" "calls lo_fn()"

# Listed as debt, the upward call passes; an allow line that matches nothing
# fails (the list only shrinks).
printf 'engine/lo/lo.c engine/hi  debt\n' >"$c/tools/layers.allow"
printf 'void hi_fn(void) {}\nvoid obs_tap(void);\n' >"$c/engine/hi/hi.c"
cc -c -o "$c/b/engine/hi/hi.o" "$c/engine/hi/hi.c" || fail "cc hi.c"
out=$(sh tools/layers.sh --root "$c" --objs "$c/b" 2>&1) || fail "allowed debt failed: $out"
expect_contains "$out" "1 of them known debt"
printf 'engine/lo/lo.c engine/hi  debt\nengine/hi/hi.c engine/lo  stale\n' >"$c/tools/layers.allow"
out=$(sh tools/layers.sh --root "$c" --objs "$c/b" 2>&1) && fail "a stale allow line passed: $out"
expect_contains "$out" "lists \"engine/hi/hi.c engine/lo  stale\", which no longer happens"
