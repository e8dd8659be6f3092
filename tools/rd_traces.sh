#!/bin/sh
# rd_traces.sh DIR: writes the .trc thread-address traces of docs/REUSE.md's
# reference tables into DIR (engine/reuse/trc.h format: "blocksize: X Y Z", then
# "gid dir addr bytes", 0 = load, 1 = store). Deterministic (awk, fixed LCG).
#
#   stream      c[t] = a[t] + b[t]: 8192 threads, 4-byte loads, coalesced
#   strided     two passes over a[32 t]: every lane its own line, reused once
#   transpose   naive 64x64 transpose, out[y][x] = in[x][y]: uncoalesced loads
#   gather      y[t] = x[idx[t]], idx random over 256 KB, read twice
#   wide        8- and 16-byte loads: double a[t], float4 b[t], double c[32 t]
#               (uncoalesced half-warps), then a[t] again
#   stencil     5-point stencil on a 64x64 grid (clamped at the edges)
#   matmul      naive 64x64 matmul: C[i][j] = sum_k A[i][k] B[k][j]
DIR=${1:?usage: rd_traces.sh DIR}
mkdir -p "$DIR" || exit 1

A=1048576 B=2097152 C=3145728 D=4194304 # array bases (byte addresses)

awk -v a=$A -v b=$B -v c=$C 'BEGIN {
	print "blocksize: 256 1 1"
	for (t = 0; t < 8192; t++)
		printf "%d 0 %d 4\n%d 0 %d 4\n%d 1 %d 4\n", t, a + 4 * t, t, b + 4 * t, t, c + 4 * t
}' >"$DIR/stream.trc"

awk -v a=$A -v c=$C 'BEGIN {
	print "blocksize: 128 1 1"
	for (t = 0; t < 2048; t++)
		printf "%d 0 %d 4\n%d 0 %d 4\n%d 1 %d 4\n", t, a + 128 * t, t, a + 128 * t, t, c + 4 * t
}' >"$DIR/strided.trc"

awk -v a=$A -v c=$C 'BEGIN {
	n = 64
	print "blocksize: 256 1 1"
	for (t = 0; t < n * n; t++) {
		x = t % n; y = int(t / n)
		printf "%d 0 %d 4\n%d 1 %d 4\n", t, a + 4 * (x * n + y), t, c + 4 * (y * n + x)
	}
}' >"$DIR/transpose.trc"

awk -v a=$A -v b=$B -v c=$C 'BEGIN {
	s = 12345
	print "blocksize: 192 1 1"
	for (t = 0; t < 6144; t++) {
		s = (s * 1103515245 + 12345) % 2147483648
		i = int(s / 65536) % 65536
		printf "%d 0 %d 4\n%d 0 %d 4\n%d 0 %d 4\n%d 1 %d 4\n", t, b + 4 * t, t, a + 4 * i, t, a + 4 * i, t, c + 4 * t
	}
}' >"$DIR/gather.trc"

awk -v a=$A -v b=$B -v c=$C -v d=$D 'BEGIN {
	print "blocksize: 256 1 1"
	for (t = 0; t < 4096; t++)
		printf "%d 0 %d 8\n%d 0 %d 16\n%d 0 %d 8\n%d 0 %d 8\n%d 1 %d 16\n", t, a + 8 * t, t, b + 16 * t,
			t, c + 256 * t, t, a + 8 * t, t, d + 16 * t
}' >"$DIR/wide.trc"

awk -v a=$A -v c=$C 'BEGIN {
	n = 64
	print "blocksize: 256 1 1"
	for (t = 0; t < n * n; t++) {
		x = t % n; y = int(t / n)
		xm = x > 0 ? x - 1 : x; xp = x < n - 1 ? x + 1 : x
		ym = y > 0 ? y - 1 : y; yp = y < n - 1 ? y + 1 : y
		printf "%d 0 %d 4\n", t, a + 4 * (y * n + x)
		printf "%d 0 %d 4\n", t, a + 4 * (ym * n + x)
		printf "%d 0 %d 4\n", t, a + 4 * (yp * n + x)
		printf "%d 0 %d 4\n", t, a + 4 * (y * n + xm)
		printf "%d 0 %d 4\n", t, a + 4 * (y * n + xp)
		printf "%d 1 %d 4\n", t, c + 4 * (y * n + x)
	}
}' >"$DIR/stencil.trc"

awk -v a=$A -v b=$B -v c=$C 'BEGIN {
	n = 64
	print "blocksize: 256 1 1"
	for (t = 0; t < n * n; t++) {
		j = t % n; i = int(t / n)
		for (k = 0; k < n; k++)
			printf "%d 0 %d 4\n%d 0 %d 4\n", t, a + 4 * (i * n + k), t, b + 4 * (k * n + j)
		printf "%d 1 %d 4\n", t, c + 4 * (i * n + j)
	}
}' >"$DIR/matmul.trc"
