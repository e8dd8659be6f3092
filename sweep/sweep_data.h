/*
 * sweep_data.h: a sweep's results read back (sweep_collect.c) for collect,
 * table and plot.
 */
#ifndef GPUSTEP_SWEEP_DATA_H
#define GPUSTEP_SWEEP_DATA_H

#include "sweep.h"

struct cJSON;

struct sweep_res {
	const char *status;  /* "done", "failed", "missing" */
	struct cJSON *doc;   /* the stats JSON of a done job */
	int exit_code;       /* failed */
	char *message;       /* failed: the last lines the job printed */
};

struct sweep_data {
	const struct sweep *sw;
	struct sweep_res *res; /* by job index */
	int ndone, nfailed, nmissing;
};

/* A stats result that counts as done: a JSON object with a whole, finite,
 * non-negative "cycles" below 2^63 and a "stats" object ([] or cycles 1e300
 * are not, and their job runs again). */
bool sweep_result_doc_valid(const struct cJSON *doc);
bool sweep_result_valid(const char *path);
void sweep_data_load(struct sweep_data *sd, const struct sweep *sw);
void sweep_data_free(struct sweep_data *sd);
/* A scalar stat ("cycles" or a name under "stats") of a done job. */
bool sweep_data_value(const struct sweep_data *sd, int job, const char *stat, double *v);
/* Value of dim d as shown in tables: configs and workloads without directory
 * and .json. Caller frees. */
char *sweep_display(const struct sweep *sw, const struct sweep_job *j, int d);
bool sweep_is_number(const char *s, double *v);
/* --fmt of sweep table against its grammar (sweep_plot.c): 0 or -1 + *err. */
int sweep_fmt_check(const char *fmt, char **err);

#endif
