/*
 * sweep_run.c: `gpustep sweep`: option parsing and the runners (sweep.h).
 *
 *   -j N               N child processes here, a progress line on stderr
 *   --job K            job K alone (what Slurm array tasks and the GNU
 *                      parallel job list run)
 *   --emit parallel D  D/jobs.txt + D/run.sh (parallel --joblog --resume)
 *   --emit slurm D     D/sweep.sbatch (sbatch --array=0-N-1)
 *
 * Every runner skips a job whose result file exists, so any of them resumes
 * after a crash or a cancelled allocation. A job's child process writes its
 * stats JSON atomically (stats_json.h); a result therefore exists only for a
 * job that ran to the end. A job that fails leaves KEY.fail.json with its
 * exit status and the last lines it printed; the next run retries it.
 */
#include "sweep.h"
#include "sweep_data.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cJSON.h"
#include "cli/cli.h"
#include "load/loader.h"
#include "export/stats_json.h"
#include "sim/util.h"

static volatile sig_atomic_t stop_requested;

static void on_stop(int sig)
{
	(void)sig;
	stop_requested = 1;
}

bool sweep_glob_list_match(const char *globs, const char *name)
{
	if (!globs || !*globs)
		return true;
	char *copy = xstrdup(globs), *save = NULL;
	bool m = false;
	for (char *g = strtok_r(copy, ",", &save); g && !m; g = strtok_r(NULL, ",", &save))
		m = fnmatch(g, name, 0) == 0;
	free(copy);
	return m;
}

static double now_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* One line appended to OUT/sweep.log (O_APPEND: concurrent runners interleave whole lines). */
static void sweep_log(const struct sweep *sw, const char *fmt, const struct sweep_job *j, const char *extra)
{
	char *path = xasprintf("%s/sweep.log", sw->out);
	int fd = open(path, O_WRONLY | O_CREAT | O_APPEND, 0666);
	free(path);
	if (fd < 0)
		return;
	char line[256];
	int n = snprintf(line, sizeof line, "%s %d %s%s%s\n", fmt, j->index, j->key, extra ? " " : "", extra ? extra : "");
	if (n > 0 && write(fd, line, (size_t)MIN(n, (int)sizeof line - 1)) < 0)
		n = 0;
	close(fd);
}

static pid_t spawn(const struct sweep *sw, const struct sweep_job *j)
{
	char *log = sweep_log_path(sw, j);
	char *fail = sweep_fail_path(sw, j);
	unlink(fail); /* a retry: the old failure no longer stands */
	free(fail);
	fflush(NULL);
	pid_t pid = fork();
	if (pid == 0) {
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0666);
		if (fd >= 0) {
			dup2(fd, STDOUT_FILENO);
			dup2(fd, STDERR_FILENO);
			close(fd);
		}
		int nul = open("/dev/null", O_RDONLY);
		if (nul >= 0)
			dup2(nul, STDIN_FILENO);
		char **av = xcalloc((size_t)j->argc + 2, sizeof(char *));
		av[0] = sw->self;
		for (int i = 0; i < j->argc; i++)
			av[i + 1] = j->argv[i];
		execv(sw->self, av);
		fprintf(stderr, "gpustep sweep: cannot run %s: %s\n", sw->self, strerror(errno));
		_exit(127);
	}
	free(log);
	if (pid > 0)
		sweep_log(sw, "start", j, NULL);
	return pid;
}

/* The last lines (up to ~600 bytes) a failed job printed. */
static char *log_tail(const char *path)
{
	size_t len = 0;
	char *e = NULL;
	char *t = loader_read_file(path, &len, &e);
	free(e);
	if (!t)
		return xstrdup("(no output)");
	while (len && (t[len - 1] == '\n' || t[len - 1] == ' '))
		t[--len] = 0;
	size_t start = len > 600 ? len - 600 : 0;
	char *nl = start ? strchr(t + start, '\n') : NULL;
	char *r = xstrdup(nl ? nl + 1 : t + start);
	free(t);
	return *r ? r : (free(r), xstrdup("(no output)"));
}

/* After the child of job j ended with wait status st: record the outcome.
 * Returns 0 for a result, 1 for a failure, 2 if interrupted (not recorded). */
static int finish(const struct sweep *sw, const struct sweep_job *j, int st, bool interrupted)
{
	char *res = sweep_result_path(sw, j);
	/* The result is renamed into place whole, so it is the truth: a child
	 * the interrupt reached after that rename finished its job (a resume
	 * skips it), and is logged done, not stopped. */
	bool ok = sweep_file_exists(res) && ((WIFEXITED(st) && WEXITSTATUS(st) == 0) || interrupted);
	if (!ok) /* a child stopped while saving leaves its temporary file */
		remove_stale_temps(res);
	free(res);
	if (ok) {
		sweep_log(sw, "done", j, NULL);
		return 0;
	}
	if (interrupted) {
		sweep_log(sw, "stopped", j, NULL);
		return 2;
	}
	int code = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	char *log = sweep_log_path(sw, j);
	char *msg = log_tail(log);
	cJSON *o = cJSON_CreateObject();
	cJSON_AddNumberToObject(o, "job", j->index);
	cJSON_AddStringToObject(o, "key", j->key);
	cJSON_AddNumberToObject(o, "exit", code);
	if (WIFSIGNALED(st))
		cJSON_AddStringToObject(o, "signal", strsignal(WTERMSIG(st)));
	cJSON_AddStringToObject(o, "message", msg);
	cJSON_AddStringToObject(o, "log", log);
	char *text = cJSON_Print(o), *err = NULL;
	char *fail = sweep_fail_path(sw, j);
	if (write_file_atomic(fail, text, &err)) {
		fprintf(stderr, "gpustep sweep: %s\n", err);
		free(err);
	}
	char extra[32];
	snprintf(extra, sizeof extra, "exit=%d", code);
	sweep_log(sw, "fail", j, extra);
	fprintf(stderr, "%sgpustep sweep: job %d (%s) failed, exit %d: %s\n", isatty(STDERR_FILENO) ? "\r\033[K" : "",
		j->index, j->key, code, msg);
	free(fail);
	free(text);
	cJSON_Delete(o);
	free(msg);
	free(log);
	return 1;
}

static bool has_result(const struct sweep *sw, const struct sweep_job *j)
{
	char *r = sweep_result_path(sw, j);
	bool e = sweep_result_valid(r); /* a damaged result ([] or cycles 1e300) runs again */
	free(r);
	return e;
}

void sweep_progress_line(char *buf, size_t n, int done, int failed, int running, int total, int skipped,
			 double elapsed, bool stopped)
{
	int now_done = done - skipped;
	int left = total - done - failed;
	char eta[48] = "";
	if (stopped && left > 0) /* nothing more will run: no time to wait for */
		snprintf(eta, sizeof eta, ", stopped (%d not run)", left);
	else if (now_done + failed > 0 && left > 0)
		snprintf(eta, sizeof eta, ", ETA %.0fs", elapsed / (now_done + failed) * left);
	int width = 24, fill = total ? (done + failed) * width / total : width;
	snprintf(buf, n, "[%.*s%*s] %d/%d done, %d failed, %d running%s", fill, "########################",
		 width - fill, "", done, total, failed, running, eta);
}

static void progress(int done, int failed, int running, int total, int skipped, double t0, bool final)
{
	char line[160];
	sweep_progress_line(line, sizeof line, done, failed, running, total, skipped, now_s() - t0,
			    final && stop_requested);
	bool tty = isatty(STDERR_FILENO);
	fprintf(stderr, "%s%s%s", tty ? "\r\033[K" : "", line, tty && !final ? "" : "\n");
	fflush(stderr);
}

/* OUT/locks/KEY.lock, flock'd by the runner that runs the job (any runner:
 * -j, --job, parallel, Slurm), so two runners on one results folder never
 * run a job twice. The lock dies with its process; the file stays (removing
 * it would race with a runner opening it). -1: another runner holds it. */
static int lock_job(const struct sweep *sw, const struct sweep_job *j)
{
	char *p = xasprintf("%s/locks/%s.lock", sw->out, j->key);
	int fd = open(p, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK, 0666);
	free(p);
	if (fd < 0)
		return -2; /* cannot lock (a read-only folder?): run it as before */
	if (flock(fd, LOCK_EX | LOCK_NB)) {
		close(fd);
		return -1;
	}
	return fd;
}

static void unlock_job(int fd)
{
	if (fd >= 0)
		close(fd);
}

struct running {
	pid_t pid;
	int job;
	int lock;
};

static int run_local(const struct sweep *sw, int nproc)
{
	int total = sw->njobs, done = 0, failed = 0, skipped = 0, next = 0, nrun = 0, elsewhere = 0;
	struct running *run = xcalloc((size_t)nproc, sizeof *run);
	for (int i = 0; i < total; i++)
		if (has_result(sw, &sw->jobs[i]))
			done++;
	skipped = done;
	if (skipped)
		fprintf(stderr, "gpustep sweep: %d of %d jobs have results already (skipped)\n", skipped, total);
	struct sigaction sa, old_int, old_term;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_stop; /* no SA_RESTART: waitpid returns on a signal */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	double t0 = now_s();
	for (;;) {
		while (!stop_requested && nrun < nproc && next < total) {
			const struct sweep_job *j = &sw->jobs[next++];
			if (has_result(sw, j))
				continue;
			int lock = lock_job(sw, j);
			if (lock == -1) { /* another runner on this folder runs it */
				elsewhere++;
				continue;
			}
			if (has_result(sw, j)) { /* finished by another runner just now */
				unlock_job(lock);
				done++;
				continue;
			}
			pid_t pid = spawn(sw, j);
			if (pid < 0) {
				fprintf(stderr, "gpustep sweep: fork: %s\n", strerror(errno));
				unlock_job(lock);
				stop_requested = 1;
				break;
			}
			run[nrun++] = (struct running){pid, j->index, lock};
		}
		if (nrun == 0)
			break;
		progress(done, failed, nrun, total, skipped, t0, false);
		int st;
		pid_t pid = waitpid(-1, &st, 0);
		if (pid < 0) {
			if (errno == EINTR && stop_requested)
				for (int i = 0; i < nrun; i++)
					kill(run[i].pid, SIGTERM);
			continue;
		}
		for (int i = 0; i < nrun; i++)
			if (run[i].pid == pid) {
				int r = finish(sw, &sw->jobs[run[i].job], st, stop_requested);
				unlock_job(run[i].lock);
				done += r == 0;
				failed += r == 1;
				run[i] = run[--nrun];
				break;
			}
	}
	progress(done, failed, 0, total, skipped, t0, true);
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	free(run);
	if (stop_requested) {
		fprintf(stderr, "gpustep sweep: stopped; %d of %d jobs have results; run the same command to resume\n",
			done, total);
		return EXIT_RUNTIME;
	}
	fprintf(stderr, "gpustep sweep: %d jobs: %d done (%d run now, %d had results), %d failed; results in %s\n", total,
		done, done - skipped, skipped, failed, sw->out);
	if (elsewhere) /* not waited for: rerun (or collect) once that runner ends */
		fprintf(stderr, "gpustep sweep: %d jobs were running in another runner on the same results folder\n",
			elsewhere);
	return failed ? EXIT_RUNTIME : EXIT_OK;
}

static int run_job(const struct sweep *sw, long k)
{
	if (k < 0 || k >= sw->njobs) {
		fprintf(stderr, "gpustep sweep: --job %ld: the spec has jobs 0 to %d\n", k, sw->njobs - 1);
		return EXIT_USAGE;
	}
	const struct sweep_job *j = &sw->jobs[k];
	if (has_result(sw, j)) {
		printf("job %ld (%s): result exists, skipped\n", k, j->key);
		return EXIT_OK;
	}
	int lock = lock_job(sw, j);
	if (lock == -1) {
		printf("job %ld (%s): running in another runner on the same results folder, skipped\n", k, j->key);
		return EXIT_OK;
	}
	if (has_result(sw, j)) {
		unlock_job(lock);
		printf("job %ld (%s): result exists, skipped\n", k, j->key);
		return EXIT_OK;
	}
	pid_t pid = spawn(sw, j);
	if (pid < 0) {
		fprintf(stderr, "gpustep sweep: fork: %s\n", strerror(errno));
		unlock_job(lock);
		return EXIT_RUNTIME;
	}
	int st;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR) {
			unlock_job(lock);
			return EXIT_RUNTIME;
		}
	int r = finish(sw, j, st, false);
	unlock_job(lock);
	if (r == 0)
		printf("job %ld (%s): done\n", k, j->key);
	return r ? EXIT_RUNTIME : EXIT_OK;
}

/* 'text' for sh, with ' as '\'' */
static void sh_quote(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s; s++)
		if (*s == '\'')
			fputs("'\\''", f);
		else
			fputc(*s, f);
	fputc('\'', f);
}

static bool have_cmd(const char *name)
{
	const char *path = getenv("PATH");
	if (!path)
		return false;
	char *copy = xstrdup(path), *save = NULL;
	bool found = false;
	for (char *d = strtok_r(copy, ":", &save); d && !found; d = strtok_r(NULL, ":", &save)) {
		char *p = xasprintf("%s/%s", d, name);
		found = access(p, X_OK) == 0;
		free(p);
	}
	free(copy);
	return found;
}

static void job_command(FILE *f, const struct sweep *sw, const char *spec_abs, const char *k)
{
	sh_quote(f, sw->self);
	fputs(" sweep ", f);
	sh_quote(f, spec_abs);
	fputs(" --out ", f);
	sh_quote(f, sw->out);
	fprintf(f, " --job %s", k);
}

/* #SBATCH lines are split by sbatch itself, not a shell: a path there can
 * carry no space or quote, and % starts a file-name pattern. */
static bool sbatch_safe(const char *s)
{
	for (; *s; s++)
		if (!(*s >= 'a' && *s <= 'z') && !(*s >= 'A' && *s <= 'Z') && !(*s >= '0' && *s <= '9') &&
		    !strchr("/._,+=@:-", *s))
			return false;
	return true;
}

/* The path as an sbatch file-name pattern: % doubled (sbatch reads %% as %). */
static char *sbatch_pattern(const char *s)
{
	struct strbuf sb;
	sb_init(&sb);
	for (; *s; s++)
		sb_puts(&sb, *s == '%' ? "%%" : (char[]){*s, 0});
	return sb.s;
}

/* --time, --partition, --mem as Slurm takes them ("" when fine, else
 * what is wrong): they go into #SBATCH lines, which have no quoting. */
static const char *slurm_opt_problem(const char *opt, const char *v)
{
	size_t n = strlen(v);
	if (!n || n > 64)
		return "expected 1 to 64 characters";
	if (strcmp(opt, "time") == 0) /* MIN, MIN:SS, H:MM:SS, D-H, D-H:MM, D-H:MM:SS */
		return strspn(v, "0123456789:-") == n && isdigit((unsigned char)v[0]) && isdigit((unsigned char)v[n - 1]) &&
				       !strstr(v, "::") && strchr(v, '-') == strrchr(v, '-')
			   ? ""
			   : "expected minutes, MM:SS, HH:MM:SS or D-HH:MM:SS (e.g. 2:00:00)";
	if (strcmp(opt, "mem") == 0) { /* digits with an optional K, M, G or T */
		size_t d = strspn(v, "0123456789");
		return d > 0 && (d == n || (d == n - 1 && strchr("KMGTkmgt", v[d]))) ? ""
										    : "expected a size such as 4G or 500M";
	}
	for (const char *c = v; *c; c++) /* a partition, or a comma list of them */
		if (!isalnum((unsigned char)*c) && !strchr("_.-,", *c))
			return "expected a partition name (letters, digits, '_', '.', '-'; several with ',')";
	return "";
}

static int emit(const struct sweep *sw, const struct sweep_opts *o, const char *kind, const char *dir, int nproc)
{
	char *err = NULL;
	/* One command per line in jobs.txt, and lines of a shell script: a
	 * newline in a path there would start a command of its own. */
	if (path_check_printable("--emit", dir, &err) || path_check_printable("gpustep", sw->self, &err)) {
		fprintf(stderr, "gpustep sweep: %s\n", err);
		free(err);
		return EXIT_USAGE;
	}
	if (mkdir(dir, 0777) && errno != EEXIST) {
		fprintf(stderr, "gpustep sweep: %s: %s\n", dir, strerror(errno));
		return EXIT_RUNTIME;
	}
	char *dabs = realpath(dir, NULL);
	char *spec_abs = realpath(sw->spec_path, NULL);
	if (!dabs || !spec_abs) {
		fprintf(stderr, "gpustep sweep: %s: %s\n", dabs ? sw->spec_path : dir, strerror(errno));
		free(dabs);
		free(spec_abs);
		return EXIT_RUNTIME;
	}
	if (path_check_printable("--emit", dabs, &err) || path_check_printable("spec", spec_abs, &err)) {
		fprintf(stderr, "gpustep sweep: %s\n", err); /* a symlink may resolve to such a name */
		free(err);
		free(dabs);
		free(spec_abs);
		return EXIT_USAGE;
	}
	int rc = EXIT_OK;
	if (strcmp(kind, "parallel") == 0) {
		char *jobs = xasprintf("%s/jobs.txt", dabs), *sh = xasprintf("%s/run.sh", dabs);
		struct outfile *of = outfile_open(jobs, &err), *og = NULL;
		FILE *f = of ? outfile_stream(of) : NULL;
		for (int i = 0; f && i < sw->njobs; i++) {
			char k[16];
			snprintf(k, sizeof k, "%d", i);
			job_command(f, sw, spec_abs, k);
			fputc('\n', f);
		}
		if (of && outfile_close(of, &err) == 0 && (og = outfile_open(sh, &err)) != NULL) {
			FILE *g = outfile_stream(og);
			fprintf(g, "#!/bin/sh\n# %d jobs of the spec ", sw->njobs);
			sh_quote(g, spec_abs);
			fprintf(g, "\n# with GNU parallel (apt-get install parallel).\n"
				   "# --joblog + --resume: a rerun skips what finished; gpustep skips jobs with results too.\n"
				   "# JOBS=N sets the number of parallel jobs.\nexec parallel --joblog ");
			char *jl = xasprintf("%s/joblog", dabs);
			sh_quote(g, jl);
			free(jl);
			fprintf(g, " --resume -j \"${JOBS:-%d}\" -a ", nproc);
			sh_quote(g, jobs);
			fputc('\n', g);
		}
		if (!og || outfile_close(og, &err)) {
			fprintf(stderr, "gpustep sweep: cannot write: %s\n", err ? err : jobs);
			rc = EXIT_RUNTIME;
		} else {
			chmod(sh, 0755);
			printf("wrote %s (%d jobs) and %s; run:\n  sh ", jobs, sw->njobs, sh);
			sh_quote(stdout, sh);
			fputc('\n', stdout);
			if (!have_cmd("parallel"))
				printf("GNU parallel is not installed: sudo apt-get install -y parallel\n");
		}
		free(jobs);
		free(sh);
	} else {
		char *sb = xasprintf("%s/sweep.sbatch", dabs);
		bool safe = sbatch_safe(dabs);
		char *pat = sbatch_pattern(dabs);
		char *outopt = xasprintf("--output=%s/slurm-%%A_%%a.out", pat);
		struct outfile *of = outfile_open(sb, &err);
		if (of) {
			FILE *f = outfile_stream(of);
			fprintf(f, "#!/bin/sh\n# %d jobs of the spec ", sw->njobs);
			sh_quote(f, spec_abs);
			fputs("\n# as a Slurm job array; submit with: sbatch ", f);
			if (!safe)
				sh_quote(f, outopt), fputc(' ', f);
			sh_quote(f, sb);
			fprintf(f, "\n# Options given to sbatch on its command line override these.\n"
				   "#SBATCH --job-name=gpustep-sweep\n#SBATCH --array=0-%d\n#SBATCH --ntasks=1\n"
				   "#SBATCH --cpus-per-task=1\n",
				sw->njobs - 1);
			if (safe) /* else on the sbatch command line (above): #SBATCH lines have no quoting */
				fprintf(f, "#SBATCH %s\n", outopt);
			if (o->time)
				fprintf(f, "#SBATCH --time=%s\n", o->time);
			if (o->partition)
				fprintf(f, "#SBATCH --partition=%s\n", o->partition);
			if (o->mem)
				fprintf(f, "#SBATCH --mem=%s\n", o->mem);
			fputs("exec ", f);
			job_command(f, sw, spec_abs, "\"$SLURM_ARRAY_TASK_ID\"");
			fputc('\n', f);
		}
		if (!of || outfile_close(of, &err)) {
			fprintf(stderr, "gpustep sweep: cannot write: %s\n", err ? err : sb);
			rc = EXIT_RUNTIME;
		} else {
			printf("wrote %s (array 0-%d); submit with:\n  sbatch ", sb, sw->njobs - 1);
			if (!safe)
				sh_quote(stdout, outopt), fputc(' ', stdout);
			sh_quote(stdout, sb);
			fputc('\n', stdout);
			if (!have_cmd("sbatch"))
				printf("Slurm's sbatch is not on PATH here (Debian: sudo apt-get install -y slurm-client)\n");
		}
		free(sb);
		free(pat);
		free(outopt);
	}
	free(err);
	free(dabs);
	free(spec_abs);
	return rc;
}

static void list_jobs(const struct sweep *sw)
{
	printf("%-5s %-16s %-7s", "job", "key", "status");
	for (int d = 0; d < sw->ndims; d++)
		printf(" %s", sw->dims[d].name);
	printf("\n");
	for (int i = 0; i < sw->njobs; i++) {
		const struct sweep_job *j = &sw->jobs[i];
		char *f = sweep_fail_path(sw, j);
		const char *status = has_result(sw, j) ? "done" : sweep_file_exists(f) ? "failed" : "-";
		free(f);
		printf("%-5d %-16s %-7s", i, j->key, status);
		for (int d = 0; d < sw->ndims; d++) {
			char *v = sweep_display(sw, j, d);
			printf(" %s", v);
			free(v);
		}
		printf("\n");
	}
}

static const char usage_text[] =
	"usage: gpustep sweep SPEC.json [-j N | --emit parallel DIR | --emit slurm DIR | --job K] [--out DIR] [--list]\n"
	"       gpustep sweep SPEC.json --emit slurm DIR [--time D-HH:MM:SS] [--partition P] [--mem 4G]\n"
	"       gpustep sweep collect SPEC.json [--db FILE] [--csv FILE] [--stats GLOB,...] [--out DIR]\n"
	"       gpustep sweep table SPEC.json --rows DIM [--cols DIM] --stats STAT,... [--agg mean|geomean|sum]\n"
	"                                     [--base ROWVALUE] [--fmt %.3f] [--md FILE] [--out DIR]\n"
	"       gpustep sweep plot SPEC.json --x DIM --y STAT [--by DIM] [--agg ...] [--log x|y|xy]\n"
	"                                    -o FILE.png|FILE.svg [--out DIR]\n"
	"Results go to SPEC-results/ beside the spec unless --out. DIM: config, workload, seed, an axis path or a\n"
	"param name. docs/SWEEPS.md has the spec format.\n";

static int usage(const char *fmt, const char *arg)
{
	fprintf(stderr, "gpustep sweep: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\n%s", usage_text);
	return EXIT_USAGE;
}

enum { O_EMIT = 256, O_JOB, O_OUT, O_LIST, O_DB, O_CSV, O_MD, O_STATS, O_X, O_Y, O_BY, O_ROWS, O_COLS, O_FMT, O_AGG, O_BASE, O_LOG,
       O_TIME, O_PARTITION, O_MEM };

static const struct option opts[] = {
	{"jobs", required_argument, NULL, 'j'}, {"emit", required_argument, NULL, O_EMIT},
	{"job", required_argument, NULL, O_JOB}, {"out", required_argument, NULL, O_OUT},
	{"list", no_argument, NULL, O_LIST},    {"db", required_argument, NULL, O_DB},
	{"csv", required_argument, NULL, O_CSV}, {"md", required_argument, NULL, O_MD},
	{"stats", required_argument, NULL, O_STATS}, {"x", required_argument, NULL, O_X},
	{"y", required_argument, NULL, O_Y},    {"by", required_argument, NULL, O_BY},
	{"rows", required_argument, NULL, O_ROWS}, {"cols", required_argument, NULL, O_COLS},
	{"fmt", required_argument, NULL, O_FMT}, {"agg", required_argument, NULL, O_AGG},
	{"base", required_argument, NULL, O_BASE}, {"log", required_argument, NULL, O_LOG},
	{"time", required_argument, NULL, O_TIME}, {"partition", required_argument, NULL, O_PARTITION},
	{"mem", required_argument, NULL, O_MEM},
	{"help", no_argument, NULL, 'h'},       {NULL, 0, NULL, 0},
};

int sweep_main(int argc, char **argv)
{
	const char *sub = "run";
	if (argc > 1 && (!strcmp(argv[1], "collect") || !strcmp(argv[1], "plot") || !strcmp(argv[1], "table"))) {
		sub = argv[1];
		argc--;
		argv++;
	}
	struct sweep_opts o = {.job = -1};
	int c;
	opterr = 0;
	optind = 1;
	bool run_opt = false;
	while ((c = getopt_long(argc, argv, ":j:o:h", opts, NULL)) != -1) {
		char *end;
		switch (c) {
		case 'j':
			o.jobs = (int)strtol(optarg, &end, 10);
			if (!*optarg || *end || o.jobs < 1 || o.jobs > 1024)
				return usage("-j: expected 1 to 1024 processes, got '%s'", optarg);
			run_opt = true;
			break;
		case O_EMIT:
			if (strcmp(optarg, "parallel") && strcmp(optarg, "slurm"))
				return usage("--emit: expected 'parallel DIR' or 'slurm DIR', got '%s'", optarg);
			if (optind >= argc || argv[optind][0] == '-')
				return usage("--emit %s: needs a directory", optarg);
			o.emit = optarg;
			o.emit_dir = argv[optind++];
			run_opt = true;
			break;
		case O_JOB:
			o.job = strtol(optarg, &end, 10);
			if (!*optarg || *end || o.job < 0)
				return usage("--job: expected a job index (0, 1, ...), got '%s'", optarg);
			run_opt = true;
			break;
		case O_OUT:
			o.out = optarg;
			break;
		case O_LIST:
			o.list = true;
			break;
		case O_DB: o.db = optarg; break;
		case O_CSV: o.csv = optarg; break;
		case O_MD: o.md = optarg; break;
		case O_STATS: o.stats = optarg; break;
		case O_X: o.x = optarg; break;
		case O_Y: o.y = optarg; break;
		case O_BY: o.by = optarg; break;
		case 'o': o.o = optarg; break;
		case O_ROWS: o.rows = optarg; break;
		case O_COLS: o.cols = optarg; break;
		case O_FMT: o.fmt = optarg; break;
		case O_BASE: o.base = optarg; break;
		case O_LOG:
			if (strcmp(optarg, "x") && strcmp(optarg, "y") && strcmp(optarg, "xy"))
				return usage("--log: expected x, y or xy, got '%s'", optarg);
			o.log = optarg;
			break;
		case O_AGG:
			if (strcmp(optarg, "mean") && strcmp(optarg, "geomean") && strcmp(optarg, "sum"))
				return usage("--agg: expected mean, geomean or sum, got '%s'", optarg);
			o.agg = optarg;
			break;
		case O_TIME:
		case O_PARTITION:
		case O_MEM: {
			const char *name = c == O_TIME ? "time" : c == O_PARTITION ? "partition" : "mem";
			const char *bad = slurm_opt_problem(name, optarg);
			if (*bad) {
				fprintf(stderr, "gpustep sweep: --%s '%s': %s\n", name, optarg, bad);
				return EXIT_USAGE;
			}
			*(c == O_TIME ? &o.time : c == O_PARTITION ? &o.partition : &o.mem) = optarg;
			break;
		}
		case 'h':
			fputs(usage_text, stdout);
			return EXIT_OK;
		case ':':
			return usage("option '%s' needs an argument", argv[optind - 1]);
		default:
			return usage("unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind >= argc)
		return usage("%s", "missing SPEC.json");
	if (optind + 1 < argc)
		return usage("unexpected argument '%s'", argv[optind + 1]);
	bool is_run = strcmp(sub, "run") == 0;
	if (!is_run && (run_opt || o.list))
		return usage("-j, --emit, --job and --list belong to 'gpustep sweep SPEC', not '%s'", sub);
	if (is_run && (o.db || o.csv || o.md || o.stats || o.x || o.y || o.by || o.o || o.rows || o.cols || o.fmt || o.agg || o.base || o.log))
		return usage("%s", "--db/--csv/--stats belong to 'sweep collect', --x/--y/-o to 'sweep plot', --rows/--cols to "
				   "'sweep table'");
	if ((o.time || o.partition || o.mem) && !(o.emit && strcmp(o.emit, "slurm") == 0))
		return usage("%s", "--time, --partition and --mem go into the Slurm script: use them with --emit slurm DIR");
	if ((o.jobs > 0) + (o.emit != NULL) + (o.job >= 0) > 1)
		return usage("%s", "choose one of -j N, --emit and --job");
	char *err = NULL;
	/* --job K builds job K alone (the whole sweep was checked when it was
	 * emitted; a Slurm array of 100k tasks must not expand 100k jobs each) */
	struct sweep *sw = sweep_load_ex(argv[optind], o.out, is_run && o.job >= 0 ? o.job : -1, &err);
	if (!sw) {
		fprintf(stderr, "gpustep sweep: %s\n", err);
		free(err);
		return EXIT_USAGE;
	}
	int rc;
	if (!is_run) {
		rc = !strcmp(sub, "collect") ? sweep_collect(sw, &o) : !strcmp(sub, "table") ? sweep_table(sw, &o)
											 : sweep_plot(sw, &o);
	} else if (o.list) {
		list_jobs(sw);
		rc = EXIT_OK;
	} else if (sweep_make_dirs(sw, &err)) {
		fprintf(stderr, "gpustep sweep: %s\n", err);
		free(err);
		rc = EXIT_RUNTIME;
	} else if (o.emit) {
		long n = sysconf(_SC_NPROCESSORS_ONLN);
		rc = emit(sw, &o, o.emit, o.emit_dir, n > 0 ? (int)n : 1);
	} else if (o.job >= 0) {
		rc = run_job(sw, o.job);
	} else {
		long n = sysconf(_SC_NPROCESSORS_ONLN);
		rc = run_local(sw, o.jobs > 0 ? o.jobs : n > 0 ? (int)n : 1);
	}
	sweep_free(sw);
	return rc;
}
