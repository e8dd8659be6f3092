# tools/dramsim3_cmp/gen.py: the comparison traces (docs/DRAM.md): 20,000 requests each,
# for the GDDR5 address map row[31:18] bank[17:14] col[13:7]; _u = one every 16 cycles, _s = all at 0.
import random, sys
N = 20000
def A(row, bank, col): return (row << 18) | (bank << 14) | (col << 7)
def write(name, reqs, gap):
    with open(name, 'w') as f:
        for i, (a, w) in enumerate(reqs):
            f.write("0x%x %s %d\n" % (a, "WRITE" if w else "READ", i * gap))
rnd = random.Random(1)
pat = {
 'seq': [(i * 128, False) for i in range(N)],
 'random': [(rnd.randrange(0, 1 << 32) & ~127, False) for i in range(N)],
 'two_streams': [(A(1 + (i % 2), 0, (i // 2) % 128) if True else 0, False) for i in range(N)],
 'strided': [((i * 1024) % (1 << 32), False) for i in range(N)],
 'mix': [(rnd.randrange(0, 1 << 32) & ~127, rnd.random() < 0.3) for i in range(N)],
}
for k, v in pat.items():
    write(k + '_u.trc', v, 16)
    write(k + '_s.trc', v, 0)
