/* fuzz_traceg_xz.c: a .traceg.xz kernel (load/trace_xz.c streaming index and
 * window, engine/trace/trace.c). An input that starts with the xz magic is the
 * file as it is (corrupt streams); any other is the trace text, compressed
 * here into small blocks so the window's block boundaries fall inside it. */
#include <lzma.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "sim/util.h"

FUZZ_TARGET(traceg_xz)
{
	static const uint8_t magic[6] = {0xfd, '7', 'z', 'X', 'Z', 0};
	const uint8_t *file = data;
	size_t len = size;
	uint8_t *buf = NULL;
	if (size < 6 || memcmp(data, magic, 6) != 0) {
		size_t cap = size + size / 2 + 4096;
		buf = xmalloc(cap);
		lzma_options_lzma opt;
		lzma_lzma_preset(&opt, 0);
		lzma_filter filters[] = {{LZMA_FILTER_LZMA2, &opt}, {LZMA_VLI_UNKNOWN, NULL}};
		lzma_mt mt = {.threads = 1, .block_size = 256, .filters = filters, .check = LZMA_CHECK_CRC32};
		lzma_stream s = LZMA_STREAM_INIT;
		if (lzma_stream_encoder_mt(&s, &mt) != LZMA_OK)
			abort();
		s.next_in = data;
		s.avail_in = size;
		s.next_out = buf;
		s.avail_out = cap;
		lzma_ret r;
		while ((r = lzma_code(&s, LZMA_FINISH)) == LZMA_OK)
			;
		if (r != LZMA_STREAM_END)
			abort();
		len = cap - s.avail_out;
		lzma_end(&s);
		file = buf;
	}
	const char *path = fuzz_file("kernel-1.traceg.xz", file, len);
	struct sim_cfg c;
	cfg_defaults(&c);
	c.trace.xz_window_mb = 1;
	fuzz_workload(&c, path, 3000);
	free(buf);
	return 0;
}
