MemcpyHtoD,0x00007f0000000000,2048
kernel-1.traceg
MemcpyDtoH,0x00007f0000200000,2048
kernel-2.traceg.xz
