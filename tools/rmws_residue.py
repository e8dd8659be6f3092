#!/usr/bin/env python3
"""Tables of docs/EXPERIMENTS.md, "Why RMWS is 27 % slower on stencil2d with
rf.remap=contiguous", part "The residue decomposed": where RMWS loses time
against GTO when every CTA fits at once (-s rf.banks=32, -p n=64).

Every run is
  $B gtx480 -w stencil2d -s rf.kind=racetrack -s rf.remap=contiguous BASE
     [OPTION] -s core.scheduler=gto|rmws ...
with -s core.mem_release=in_order -s core.mem_inflight=32 (the buffer the
tables were measured with; BUFFER=preset leaves the preset's).
Parts (default: all but vmb):
  sms       per-SM CTAs, last issue, last cta.done, `info stalls N`
  latency   every load request's latency split into segments, from the event
            log (l1.access, l2.access, dram.enqueue/done, l1.fill, mem.reply)
  memory    memory-side stats (DRAM rows and queue, L2 miss contention, ...)
  ablation  sim.cycles GTO / RMWS with one resource changed at a time
  vmb       time a vector-memory-buffer entry waits, done, for older entries
            (head-of-line): needs an instrumented copy of the engine, built
            in a temporary directory from `git archive HEAD` with one
            fprintf added to vmb_retire (engine/core/core.c); nothing is changed
            in the work tree. About 2 minutes on 2 CPUs.
Usage, from the repository root (the vmb part archives its HEAD):
  B=build/gpustep python3 tools/rmws_residue.py [PART ...]
"""
import bisect
import collections
import json
import os
import re
import subprocess
import sys
import tempfile

B = os.environ.get("B", "build/gpustep")
KERNEL = ["-w", "stencil2d", "-s", "rf.kind=racetrack", "-s", "rf.remap=contiguous"]
# The tables were measured with gtx480's memory buffer before ac99ef3 (32
# entries freed in program order); BUFFER=preset runs the preset's buffer.
if os.environ.get("BUFFER", "old") != "preset":
    KERNEL += ["-s", "core.mem_release=in_order", "-s", "core.mem_inflight=32"]
BASES = [("rf.banks=32", ["-s", "rf.banks=32"]), ("n=64", ["-p", "n=64"]), ("defaults", [])]
MEM_INFLIGHT = 32  # gtx480 core.mem_inflight
L2_PIPE = 120  # gtx480 l2.hit_latency: replies leave this long after the lookup or fill (l2.fill_reply = pipeline)
KV = re.compile(r"(\w+)=(\S+)")


def die(msg):
    sys.exit("rmws_residue: " + msg)


def sched(s):
    return ["-s", "core.scheduler=" + s]


def stats(opts, binp=None, env=None):
    """(stats dict, stderr) of one --run."""
    with tempfile.NamedTemporaryFile(suffix=".json") as f:
        p = subprocess.run([binp or B, "gtx480"] + KERNEL + opts + ["--run", "--stats", f.name],
                           capture_output=True, text=True, env=env)
        if p.returncode:
            die(" ".join(opts) + ": " + p.stderr.strip())
        return json.load(open(f.name))["stats"], p.stderr


def batch(opts, script):
    p = subprocess.run([B, "gtx480"] + KERNEL + opts + ["-x", "-"], input=script, capture_output=True, text=True)
    if p.returncode:
        die(" ".join(opts) + ": " + p.stderr.strip())
    return p.stdout


def events(opts, kinds, window=100):
    """The whole event log of a run. The log's ring holds 4096 events, so it is
    read every `window` cycles; a window that filled the ring is an error."""
    end = int(stats(opts)[0]["sim.cycles"])
    marks = list(range(window, end, window))
    script = "log " + " ".join(kinds) + "\n" + "".join("goto %d\ninfo events 4096\n" % t for t in marks)
    script += "run\ninfo events 4096\n"
    bounds = list(zip([0] + marks, marks + [end + 1]))
    evs, chunks = [], [[]]
    for line in batch(opts, script).splitlines():
        if line.startswith("(gpustep) info events"):
            chunks.append([])
        elif line.startswith("cycle ") and len(line.split()) > 2:
            chunks[-1].append(line)
    if len(chunks) - 1 != len(bounds):
        die("expected %d event dumps, got %d" % (len(bounds), len(chunks) - 1))
    for (lo, hi), chunk in zip(bounds, chunks[1:]):
        if len(chunk) >= 4096 and int(chunk[0].split()[1]) >= lo:
            die("the event ring overflowed in cycles %d-%d; lower the window" % (lo, hi))
        for line in chunk:
            c = int(line.split()[1])
            if lo <= c < hi:
                e = dict(KV.findall(line))
                e["cycle"], e["kind"] = c, line.split()[2]
                evs.append(e)
    return evs


def sm_table(base):
    print("#### per SM, %s (GTO / RMWS)\n" % base[0])
    print("| SM | CTAs | last issue | last cta.done | issued | mem | scoreboard | rf | done |")
    print("|---|---|---|---|---|---|---|---|---|")
    per = {}
    for s in ("gto", "rmws"):
        ev = events(base[1] + sched(s), ["warp.issue", "cta.launch", "cta.done"])
        out = batch(base[1] + sched(s), "run\n" + "".join("info stalls %d\n" % i for i in range(15)))
        st = {}
        for m in re.finditer(r"sm (\d+), cycle \d+:.*?\n((?:  .*\n)+)", out):
            st[int(m.group(1))] = {l.split()[0].strip("()"): int(l.split()[1]) for l in m.group(2).splitlines()[1:]}
        for sm in range(15):
            mine = [e for e in ev if e.get("sm") == str(sm)]
            per.setdefault(sm, []).append((
                sum(e["kind"] == "cta.launch" for e in mine),
                max(e["cycle"] for e in mine if e["kind"] == "warp.issue"),
                max(e["cycle"] for e in mine if e["kind"] == "cta.done"), st[sm]))
    for sm, ((c, li, ld, a), (_, li2, ld2, b)) in sorted(per.items()):
        cell = " | ".join("%d / %d" % (a.get(k, 0), b.get(k, 0)) for k in ("issued", "mem", "scoreboard", "rf", "done"))
        print("| %d | %d | %d / %d | %d / %d | %s |" % (sm, c, li, li2, ld, ld2, cell))
    print()


def decompose(evs):
    """Each load request's latency (mem.reply's, from the warp's issue) split
    into consecutive segments that add up to it exactly."""
    by = collections.defaultdict(lambda: collections.defaultdict(list))
    keys = {"l1.access": ("sm", "warp", "addr"), "l1.fill": ("sm", "addr"), "l2.access": ("sm", "addr"),
            "dram.enqueue": ("addr",), "dram.done": ("addr",)}
    for e in evs:
        if e["kind"] in keys and e.get("op", "read") == "read" and e.get("write", "0") == "0":
            by[e["kind"]][tuple(e[k] for k in keys[e["kind"]])].append(e["cycle"])

    def first_ge(lst, t):
        i = bisect.bisect_left(lst, t)
        return lst[i] if i < len(lst) else None

    def last_le(lst, t):
        i = bisect.bisect_right(lst, t)
        return lst[i - 1] if i else None

    out = []
    for r in (e for e in evs if e["kind"] == "mem.reply"):
        tr, sm, a = r["cycle"], r["sm"], r["addr"]
        ti = tr - int(r["latency"])
        ta = first_ge(by["l1.access"][(sm, r["warp"], a)], ti)
        if ta is None or ta > tr:
            die("no l1.access for %s" % r)
        seg = collections.Counter(core=ta - ti)
        tf = last_le(by["l1.fill"][(sm, a)], tr)
        if tf is None or tf < ta:
            seg["l1_hit"] = tr - ta
            out.append(("L1 hit", seg))
            continue
        t2 = last_le(by["l2.access"][(sm, a)], tf)
        td = last_le(by["dram.done"][(a,)], tf - L2_PIPE)
        miss = t2 is not None and td is not None and td >= t2
        pts = [("req", t2)]
        if miss:
            pts += [("l2_wait", last_le(by["dram.enqueue"][(a,)], td)), ("dram", td), ("l2_pipe", td + L2_PIPE)]
        else:
            pts += [("l2_pipe", t2 + L2_PIPE)]
        pts += [("reply", tf), ("wake", tr)]
        prev = ta
        for name, t in pts:
            t = max(t, prev)
            seg[name] += t - prev
            prev = t
        if sum(seg.values()) != tr - ti:
            die("segments do not add up for %s: %s" % (r, dict(seg)))
        cls = "merged in L1 MSHR" if t2 < ta else "L2 miss" if miss else "L2 hit"
        out.append((cls, seg))
    return out


SEGS = ["core", "l1_hit", "req", "l2_wait", "dram", "l2_pipe", "reply", "wake"]


def late_sms(evs):
    """The SMs that ran the most CTAs (cta.launch events)."""
    n = collections.Counter(e["sm"] for e in evs if e["kind"] == "cta.launch")
    return {sm for sm, c in n.items() if c == max(n.values())}


def latency_table(base):
    print("#### load requests, %s: mean cycles per request (GTO / RMWS)\n" % base[0])
    kinds = ["cta.launch", "l1.access", "l1.fill", "l2.access", "dram.enqueue", "dram.done", "mem.reply"]
    res, late = {}, None
    for s in ("gto", "rmws"):
        evs = events(base[1] + sched(s), kinds)
        late = late or late_sms(evs)  # GTO's; one wave: the same CTAs per SM under both
        for where, sel in (("all SMs", lambda e: True), ("late SMs", lambda e: e.get("sm") in late)):
            dec = decompose([e for e in evs if sel(e) or "sm" not in e])
            for cls in ("L1 hit", "merged in L1 MSHR", "L2 hit", "L2 miss", "all"):
                rows = [g for c, g in dec if c == cls or cls == "all"]
                tot = collections.Counter()
                for g in rows:
                    tot.update(g)
                res.setdefault((where, cls), []).append((len(rows), {k: tot[k] / max(len(rows), 1) for k in SEGS}))
    print("late SMs (most CTAs): %s\n" % ", ".join(sorted(late, key=int)))
    print("| SMs | requests | n | total | " + " | ".join(SEGS) + " |")
    print("|---" * (len(SEGS) + 4) + "|")
    for (where, cls), ((n1, m1), (n2, m2)) in res.items():
        cells = " | ".join("%.1f / %.1f" % (m1[k], m2[k]) for k in SEGS)
        print("| %s | %s | %d / %d | %.1f / %.1f | %s |" % (where, cls, n1, n2, sum(m1.values()), sum(m2.values()), cells))
    print()


MEM_KEYS = ["sim.cycles", "core.mem_latency_avg", "l1.hits", "l1.mshr_merges", "l2.accesses", "l2.hits",
            "l2.miss_lat.conv.contention", "l2.miss_lat.conv.dram", "dram.row_hits", "dram.row_misses",
            "dram.row_conflicts", "dram.queue_full", "dram.read_queue", "dram.cycles", "icnt.stalls",
            "icnt.req.occupancy", "icnt.reply.occupancy", "l2.nacks", "l1.mshr_full", "core.stall.mshr_full"]


def memory_table():
    print("#### memory side (GTO / RMWS)\n")
    print("| stat | " + " | ".join(b[0] for b in BASES) + " |")
    print("|---" * (len(BASES) + 1) + "|")
    runs = [(stats(b[1] + sched("gto"))[0], stats(b[1] + sched("rmws"))[0]) for b in BASES]

    def fmt(v):
        return "%.2f" % v if isinstance(v, float) else str(v)
    for k in MEM_KEYS:
        print("| `%s` | %s |" % (k, " | ".join("%s / %s" % (fmt(g[k]), fmt(r[k])) for g, r in runs)))
    print()


ABLATIONS = ["", "-s l2.mshr.entries=1024", "-s l2.mshr.merges=16", "-s l2.queue=128", "-s l2.when_busy=nack",
             "-s dram.scheduler=fcfs", "-s dram.read_queue=128", "-s icnt.queue=64", "-s icnt.port_flits=2",
             "-s icnt.port_flits=4", "-s icnt.latency=0", "-s l1.mshr.entries=256", "-s l1.ports=4",
             "-s core.nonblocking_stores=true", "-s core.mem_inflight=48", "-s core.mem_inflight=64",
             "-s core.mem_inflight=256", "-s core.mem_inflight=256 -s icnt.port_flits=4"]
ORDERS = ["-s core.scheduler=lrr", "-s rf.rmws_tiebreak=oldest", "-s rf.rmws_tiebreak=lrr",
          "-s rf.rmws_score=accesses", "-s rf.rmws_no_reads=last", "-s core.cta_dispatch=serial",
          "-s rf.remap=eq3_3", "-s rf.warp_shift=true"]


def ablation_table(options, title):
    print("#### %s (sim.cycles GTO / RMWS, RMWS vs GTO; last column: rf.banks=32's "
          "l2.miss_lat.conv.contention)\n" % title)
    print("| option | " + " | ".join(b[0] for b in BASES) + " | contention |")
    print("|---" * (len(BASES) + 2) + "|")
    for o in options:
        cells = []
        for b in BASES:
            if o.startswith("-s core.scheduler="):  # LRR in place of RMWS, against GTO
                runs = [stats(b[1] + sched("gto"))[0], stats(b[1] + o.split())[0]]
            else:
                runs = [stats(b[1] + o.split() + sched(s))[0] for s in ("gto", "rmws")]
            g, r = (x["sim.cycles"] for x in runs)
            cells.append("%d / %d (%+.1f %%)" % (g, r, 100.0 * (r - g) / g))
            if b is BASES[0]:
                cont = "%d / %d" % tuple(x["l2.miss_lat.conv.contention"] for x in runs)
        print("| %s | %s | %s |" % ("`%s`" % o if o else "(none)", " | ".join(cells), cont))
    print()


VMB_PATCH = ("\t\tsm->vmb[sm->vmb_head].valid = 0;",
             "\t\tif (getenv(\"GPUSTEP_VMB_LOG\"))\n\t\t\tfprintf(stderr, \"VMB %d %d %d %llu %llu %llu\\n\", sm->id, "
             "sm->vmb[sm->vmb_head].warp, sm->vmb[sm->vmb_head].op, (unsigned long long)sm->vmb[sm->vmb_head].t_issue, "
             "(unsigned long long)sm->vmb[sm->vmb_head].t_done, (unsigned long long)s->st->now);\n"
             "\t\tsm->vmb[sm->vmb_head].valid = 0;")
PATCHES = [("engine/sim/sim_int.h", "\tuint64_t t_issue;\n};\n\nstruct cta_slot", "\tuint64_t t_issue;\n\tuint64_t t_done;\n};\n\nstruct cta_slot"),
           ("engine/core/core.c", "\te->done = 1;\n", "\te->done = 1;\n\te->t_done = s->st->now;\n"),
           ("engine/core/core.c", "#include <string.h>\n", "#include <string.h>\n#include <stdlib.h>\n"),
           ("engine/core/core.c",) + VMB_PATCH]


def instrumented(tmp):
    src = os.path.join(tmp, "src")
    os.mkdir(src)
    root = subprocess.run(["git", "rev-parse", "--show-toplevel"], capture_output=True, text=True).stdout.strip()
    arch = subprocess.run(["git", "-C", root, "archive", "HEAD"], capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x", "-C", src], input=arch, check=True)
    for path, old, new in PATCHES:
        p = os.path.join(src, path)
        text = open(p).read()
        if text.count(old) != 1:
            die("instrumentation: %r not found once in %s (the engine changed; update PATCHES)" % (old, path))
        open(p, "w").write(text.replace(old, new))
    p = subprocess.run(["nice", "-n", "10", "make", "-C", src, "-j2", "build/gpustep"], capture_output=True, text=True)
    if p.returncode:
        die("instrumented build failed:\n" + p.stderr[-2000:])
    return os.path.join(src, "build", "gpustep")


VARIANTS = [("GTO", sched("gto")), ("RMWS", sched("rmws")), ("LRR", sched("lrr")),
            ("RMWS, tiebreak=oldest", sched("rmws") + ["-s", "rf.rmws_tiebreak=oldest"]),
            ("RMWS, score=accesses", sched("rmws") + ["-s", "rf.rmws_score=accesses"]),
            ("GTO, remap=eq3_3", sched("gto") + ["-s", "rf.remap=eq3_3"]),
            ("RMWS, remap=eq3_3", sched("rmws") + ["-s", "rf.remap=eq3_3"])]


def vmb_cells(rows):
    """Per SM (mean over `rows`' SMs): cycles the buffer was full and not full
    until the SM's last load issued, the drain after it, the last retire; per
    entry: load (op 0, KOP_LD) and store (op 1, KOP_ST) latency from issue to
    done and the wait from done to retired (older entries still pending); the
    SM's sum of entry lives over the buffer size; the share of entries issued
    right after one of the same CTA (8 warps: warp slot / 8); the loads'
    latency spread (s.d.)."""
    def mean(op, f):
        sel = [f(x) for x in rows if x[2] == op]
        return sum(sel) / max(len(sel), 1)
    sms = {x[0] for x in rows}
    last = {sm: max(x[5] for x in rows if x[0] == sm) for sm in sms}
    life = sum(x[5] - x[3] for x in rows) / len(sms) / MEM_INFLIGHT
    adj = pairs = 0
    for sm in sms:
        seq = sorted((x for x in rows if x[0] == sm), key=lambda x: x[3])
        adj += sum(a[1] // 8 == b[1] // 8 for a, b in zip(seq, seq[1:]))
        pairs += len(seq) - 1
    full = under = tail = 0
    for sm in sms:  # an SM's time: buffer full / not full until its last load issues, then the drain
        mine = [x for x in rows if x[0] == sm]
        last_ld = max(x[3] for x in mine if x[2] == 0)
        occ = [0] * (last[sm] + 1)
        for x in mine:
            for t in range(x[3], x[5]):
                occ[t] += 1
        u = sum(1 for t in range(last_ld) if occ[t] < MEM_INFLIGHT)
        full, under, tail = full + last_ld - u, under + u, tail + last[sm] - last_ld
    lat = [x[4] - x[3] for x in rows if x[2] == 0]
    sd = (sum((v - sum(lat) / len(lat)) ** 2 for v in lat) / len(lat)) ** 0.5
    k = len(sms)
    return "%.0f | %.0f | %.0f | %.0f | %.1f | %.1f | %.1f | %.1f | %.0f | %.0f %% | %.1f" % (
        full / k, under / k, tail / k, sum(last.values()) / k, mean(0, lambda x: x[4] - x[3]),
        mean(0, lambda x: x[5] - x[4]), mean(1, lambda x: x[4] - x[3]), mean(1, lambda x: x[5] - x[4]), life,
        100.0 * adj / pairs, sd)


def vmb_table():
    with tempfile.TemporaryDirectory() as tmp:
        binp = instrumented(tmp)
        env = dict(os.environ, GPUSTEP_VMB_LOG="1")
        for base in BASES[:2]:
            print("#### vector memory buffer, %s (cycles; ld = load, st = store)\n" % base[0])
            print("| run | sim.cycles | SMs | buffer full | not full | drain | last retire | ld: issue to done "
                  "| ld: done to retired | st: issue to done | st: done to retired | entry lives / 32 "
                  "| after an entry of its CTA | ld: issue to done, s.d. |")
            print("|---" * 14 + "|")
            for name, opts in VARIANTS:
                st, err = stats(base[1] + opts, binp, env)
                rows = [tuple(int(x) for x in l.split()[1:]) for l in err.splitlines() if l.startswith("VMB ")]
                if not rows:
                    die("the instrumented binary logged no VMB entries")
                n = collections.Counter(x[0] for x in rows)
                late = {sm for sm, c in n.items() if c == max(n.values())}
                for where, sel in (("all", rows), ("most CTAs: " + ",".join(map(str, sorted(late))),
                                                   [x for x in rows if x[0] in late])):
                    print("| %s | %d | %s | %s |" % (name, st["sim.cycles"], where, vmb_cells(sel)))
            print()


def main():
    parts = sys.argv[1:] or ["sms", "latency", "memory", "ablation"]
    if not os.access(B, os.X_OK):
        die("no gpustep binary at %s (build it with make, or set B)" % B)
    for part in parts:
        if part == "sms":
            for b in BASES[:2]:
                sm_table(b)
        elif part == "latency":
            for b in BASES[:2]:
                latency_table(b)
        elif part == "memory":
            memory_table()
        elif part == "ablation":
            ablation_table(ABLATIONS, "one resource changed")
            ablation_table(ORDERS, "the issue order changed")
        elif part == "vmb":
            vmb_table()
        else:
            die("unknown part '%s' (sms, latency, memory, ablation, vmb)" % part)


if __name__ == "__main__":
    main()
