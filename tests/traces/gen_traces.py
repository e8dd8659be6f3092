#!/usr/bin/env python3
"""gen_traces.py: writes the hand-made Accel-Sim traces under tests/traces/.

The traces are checked in; this script documents how they were made and
re-creates them (python3 tests/traces/gen_traces.py). The expected cache and
DRAM counts in tests/e2e/cli_trace.sh are computed by hand from the access
patterns described here, not from this script.

  vecadd/   1 CTA x 256 threads, C[i] = A[i] + B[i], 4-byte floats, address
            mode 1 (base+stride), as the NVBit tracer writes coalesced access.
  matmul/   C = A x B, 16x16 floats, 1 CTA of 16x16 threads; warp w holds
            rows 2w and 2w+1. A loads (two distinct addresses) in mode 2,
            B loads in mode 0 (list), C stores in mode 1.
  multi/    kernelslist.g: MemcpyHtoD, kernel-1 (vecadd, 2 CTAs) and
            kernel-2.traceg.xz (a copy with a partial last warp).
  b2b/      kernelslist.g run back to back in one machine: kernel-1 copies
            A -> C (4 CTAs x 64 threads), kernel-2 copies C -> D (2 CTAs x
            128 threads, 1 KB shared memory), so kernel 2 re-reads the 8 lines
            kernel 1 wrote (tests/unit/test_multikernel.c).
"""
import os
import subprocess

HERE = os.path.dirname(os.path.abspath(__file__))
A, B, C = 0x7F0000000000, 0x7F0000100000, 0x7F0000200000


def header(name, grid, block, kid=1, nregs=16):
    return (f"-kernel name = {name}\n-kernel id = {kid}\n-grid dim = ({grid},1,1)\n"
            f"-block dim = ({block[0]},{block[1]},1)\n-shmem = 0\n-nregs = {nregs}\n"
            "-binary version = 70\n-cuda stream id = 0\n"
            "-shmem base_addr = 0x00007f0675000000\n-local mem base_addr = 0x00007f0677000000\n"
            "-nvbit version = 1.5.5\n-accelsim tracer version = 4\n-enable lineinfo = 0\n\n"
            "#traces format = [line_num] PC mask dest_num [reg_dests] opcode src_num [reg_srcs] "
            "mem_width [adrrescompress?] [mem_addresses] immediate\n\n")


def mask_of(lanes):
    return "%08x" % sum(1 << l for l in lanes)


def vecadd(nctas, threads, name="_Z6vecAddPfS_S_i"):
    out = [header(name, nctas, (threads, 1))]
    nw = (threads + 31) // 32
    for b in range(nctas):
        out.append(f"#BEGIN_TB\n\nthread block = {b},0,0\n\n")
        for w in range(nw):
            lanes = [l for l in range(32) if w * 32 + l < threads]
            m = mask_of(lanes)
            i0 = b * threads + w * 32
            ins = [
                f"0000 {m} 1 R1 IMAD.MOV.U32 2 R255 R255 0 0",
                f"0010 {m} 1 R6 S2R 0 0 0",
                f"0020 {m} 1 R3 S2R 0 0 0",
                f"0030 {m} 1 R6 IMAD 2 R3 R6 0 0",
                f"0040 {m} 0 ISETP.GE.AND 1 R6 0 0",
                f"0050 {m} 1 R2 LDG.E.SYS 1 R2 4 1 0x{A + 4 * i0:x} 4 0",
                f"0060 {m} 1 R4 LDG.E.SYS 1 R4 4 1 0x{B + 4 * i0:x} 4 0",
                f"0070 {m} 1 R9 FADD 2 R2 R4 0 0",
                f"0080 {m} 0 STG.E.SYS 2 R6 R9 4 1 0x{C + 4 * i0:x} 4 0",
                f"0090 {m} 0 EXIT 0 0 0",
            ]
            out.append(f"warp = {w}\ninsts = {len(ins)}\n" + "\n".join(ins) + "\n\n")
        out.append("#END_TB\n\n")
    return "".join(out)


def copy(name, kid, nctas, threads, src, dst, shmem=0):
    """dst[i] = src[i], one LDG and one STG per warp (mode 1)."""
    out = [header(name, nctas, (threads, 1), kid).replace("-shmem = 0", f"-shmem = {shmem}")]
    for b in range(nctas):
        out.append(f"#BEGIN_TB\n\nthread block = {b},0,0\n\n")
        for w in range(threads // 32):
            i0 = b * threads + w * 32
            ins = [f"0000 ffffffff 1 R2 LDG.E.SYS 1 R4 4 1 0x{src + 4 * i0:x} 4 0",
                   f"0010 ffffffff 0 STG.E.SYS 2 R6 R2 4 1 0x{dst + 4 * i0:x} 4 0",
                   "0020 ffffffff 0 EXIT 0 0 0"]
            out.append(f"warp = {w}\ninsts = {len(ins)}\n" + "\n".join(ins) + "\n\n")
        out.append("#END_TB\n\n")
    return "".join(out)


def matmul(n=16):
    out = [header("_Z6matmulPfS_S_i", 1, (n, n), nregs=24)]
    out.append("#BEGIN_TB\n\nthread block = 0,0,0\n\n")
    full = "ffffffff"
    for w in range(n * n // 32):
        ins = ["0000 ffffffff 1 R1 IMAD.MOV.U32 2 R255 R255 0 0",
               "0010 ffffffff 1 R0 S2R 0 0 0",
               "0020 ffffffff 1 R3 S2R 0 0 0",
               "0030 ffffffff 1 R8 MOV 0 0 0"]
        pc = 0x40
        for k in range(n):
            # A[ty][k]: lanes 0-15 row 2w, lanes 16-31 row 2w+1 (mode 2)
            a0, a1 = A + 4 * (2 * w * n + k), A + 4 * ((2 * w + 1) * n + k)
            deltas = ["0"] * 15 + [str(a1 - a0)] + ["0"] * 15
            ins.append(f"{pc:04x} {full} 1 R4 LDG.E.SYS 1 R2 4 2 0x{a0:x} " + " ".join(deltas) + " 0")
            # B[k][tx]: lanes 0-15 and 16-31 read the same 64 bytes (mode 0)
            addrs = ["0x%016x" % (B + 4 * (k * n + (l % 16))) for l in range(32)]
            ins.append(f"{pc + 16:04x} {full} 1 R5 LDG.E.SYS 1 R6 4 0 " + " ".join(addrs) + " 0")
            ins.append(f"{pc + 32:04x} {full} 1 R8 FFMA 3 R4 R5 R8 0 0")
            pc += 48
        ins.append(f"{pc:04x} {full} 0 STG.E.SYS 2 R10 R8 4 1 0x{C + 128 * w:x} 4 0")
        ins.append(f"{pc + 16:04x} {full} 0 EXIT 0 0 0")
        out.append(f"warp = {w}\ninsts = {len(ins)}\n" + "\n".join(ins) + "\n\n")
    out.append("#END_TB\n")
    return "".join(out)


def write(rel, text):
    path = os.path.join(HERE, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)
    return path


write("vecadd/kernel-1.traceg", vecadd(1, 256))
write("vecadd/kernelslist.g", "MemcpyHtoD,0x00007f0000000000,1024\nMemcpyHtoD,0x00007f0000100000,1024\n"
      "kernel-1.traceg\n")
write("matmul/kernel-1.traceg", matmul())
write("matmul/kernelslist.g", "MemcpyHtoD,0x00007f0000000000,1024\nMemcpyHtoD,0x00007f0000100000,1024\n"
      "kernel-1.traceg\n")
write("multi/kernel-1.traceg", vecadd(2, 256))
p = write("multi/kernel-2.traceg", vecadd(1, 80, "_Z4tailPfS_S_i").replace("-kernel id = 1", "-kernel id = 2"))
subprocess.run(["xz", "-f", "-9", p], check=True)
write("multi/kernelslist.g", "MemcpyHtoD,0x00007f0000000000,2048\nkernel-1.traceg\nMemcpyDtoH,0x00007f0000200000,2048\n"
      "kernel-2.traceg.xz\n")
write("b2b/kernel-1.traceg", copy("_Z5copy1PfS_", 1, 4, 64, A, C))
write("b2b/kernel-2.traceg", copy("_Z5copy2PfS_", 2, 2, 128, C, 0x7F0000300000, shmem=1024))
write("b2b/kernelslist.g", "kernel-1.traceg\nkernel-2.traceg\n")
