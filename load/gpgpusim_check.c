/*
 * gpgpusim_check.c: --check-config on a GPGPU-Sim / Accel-Sim config prints
 * what every option became (gpgpusim.h): one line per option, in file
 * order, "FILE:LINE: -option VALUE -> key=value ..." or "-> not modelled:
 * what gpustep does instead".
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "gpgpusim.h"
#include "loader.h"

int gpgpusim_print_mapping(const char *path, FILE *out, char **err)
{
	struct stat st;
	if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
		return 0; /* a preset name */
	size_t len;
	char *text = loader_read_file_max(path, "GPGPU-Sim config", LOADER_TEXT_MAX, &len, err);
	if (!text)
		return -1;
	if (!gpgpusim_is_config(path, text)) {
		free(text);
		return 0;
	}
	struct sim_cfg cfg;
	cfg_defaults(&cfg);
	struct strbuf map;
	sb_init(&map);
	int rc = gpgpusim_apply(&cfg, path, text, len, &map, NULL, err);
	if (!rc) {
		fprintf(out, "GPGPU-Sim options of %s and what gpustep makes of them:\n", path);
		fputs(map.s ? map.s : "", out);
	}
	sb_fini(&map);
	free(text);
	return rc;
}
