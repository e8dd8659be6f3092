/*
 * lesson.c: guided lessons (lesson.h, docs/LESSONS.md): loading a lesson
 * file, its steps and their checks against the machine, progress files.
 * The prompt commands (lesson, answer, hint) and `gpustep lesson` are in
 * cmd_lesson.c.
 *
 *   setup commands ─▶ step 1 ─▶ step 2 ─▶ ... ─▶ done
 *   predict step: `answer N` ─▶ run its commands ─▶ read the value
 *                 (event.FIELD of the stop, stat.NAME, cycle) ─▶ compare
 *   action step:  the student acts ─▶ `answer` ─▶ every check holds?
 */
#include "lesson.h"

#include <cjson/cJSON.h>
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "load/embedded.h"
#include "lesson_int.h"
#include "load/loader.h"

static char *dup_str(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
	return cJSON_IsString(v) ? xstrdup(v->valuestring) : NULL;
}

static int str_list(const cJSON *o, const char *key, char ***out, int *n, const char *where, char **err)
{
	const cJSON *a = cJSON_GetObjectItemCaseSensitive(o, key);
	*out = NULL;
	*n = 0;
	if (!a)
		return 0;
	if (!cJSON_IsArray(a)) {
		*err = xasprintf("%s: \"%s\" must be an array of command strings", where, key);
		return -1;
	}
	*out = xcalloc((size_t)cJSON_GetArraySize(a) + 1, sizeof **out);
	const cJSON *it;
	cJSON_ArrayForEach(it, a)
	{
		if (!cJSON_IsString(it)) {
			*err = xasprintf("%s: \"%s\" must hold strings", where, key);
			return -1;
		}
		(*out)[(*n)++] = xstrdup(it->valuestring);
	}
	return 0;
}

static void free_list(char **v, int n)
{
	for (int i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

void lesson_free(struct lesson *l)
{
	if (!l)
		return;
	for (int i = 0; i < l->nsteps; i++) {
		struct lstep *s = &l->steps[i];
		free(s->text);
		free(s->hint);
		free(s->explain);
		free(s->value);
		free(s->breakpoint);
		free(s->stopped_at);
		free(s->stat);
		for (int k = 0; k < s->nwhere; k++)
			free(s->where_name[k]);
		for (int k = 0; k < s->nclaim; k++)
			free(s->claim[k]);
		for (int k = 0; k < s->nrec; k++) {
			free(s->rec_name[k]);
			free(s->rec_expr[k]);
		}
		free_list(s->run, s->nrun);
	}
	free(l->steps);
	free(l->result);
	free_list(l->setup, l->nsetup);
	free(l->name);
	free(l->title);
	free(l->summary);
	free(l);
}

const char *lesson_name(const struct lesson *l) { return l->name; }

/* ---- what a lesson may run (docs/SECURITY.md) ------------------------------ */
bool lesson_name_ok(const char *name)
{
	size_t n = name ? strlen(name) : 0;
	if (n == 0 || n > LESSON_NAME_MAX)
		return false;
	for (const char *c = name; *c; c++)
		if (!isalnum((unsigned char)*c) && *c != '_' && *c != '-')
			return false;
	return true;
}

/* The commands a lesson's setup and predict.run may hold, by the names and
 * aliases the prompt knows them by (tui/commands.c): they move the machine
 * or choose what it records, and touch no file but the ones they read. */
static const char *const lesson_cmds[] = {
	"load", "workload", "set", "log", "break", "b", "tbreak", "watch", "delete", "d",
	"until", "u", "continue", "c", "cont", "step", "s", "next", "n", "run", "r",
};

/* The first two words as the prompt splits them (tui/commands.c tokenize:
 * "..." and '...' group); returns how many were found, -1 on an open quote. */
static int first_words(const char *p, char w[2][64])
{
	int n = 0;
	while (n < 2) {
		while (isspace((unsigned char)*p))
			p++;
		if (!*p)
			break;
		char q = (*p == '"' || *p == '\'') ? *p++ : 0;
		size_t k = 0;
		while (*p && (q ? *p != q : !isspace((unsigned char)*p))) {
			if (k < 63)
				w[n][k++] = *p;
			p++;
		}
		if (q && *p != q)
			return -1;
		if (*p)
			p++;
		w[n++][k] = 0;
	}
	return n;
}

int lesson_command_check(const char *cmd, char *why, size_t n)
{
	for (const char *c = cmd; *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f) {
			snprintf(why, n, "a command holds a control character");
			return -1;
		}
	char w[2][64] = {"", ""};
	int nw = first_words(cmd, w);
	if (nw <= 0) {
		/* An empty line would repeat the student's last command. */
		snprintf(why, n, nw < 0 ? "'%.60s' has an open quote" : "an empty command", cmd);
		return -1;
	}
	bool ok = false;
	for (size_t i = 0; i < sizeof lesson_cmds / sizeof *lesson_cmds && !ok; i++)
		ok = strcmp(w[0], lesson_cmds[i]) == 0;
	if (!ok) {
		snprintf(why, n,
			 "'%.60s' is not a command a lesson may run (load, workload, set, log, break, tbreak, watch, "
			 "delete, until, continue, step, next, run)",
			 cmd);
		return -1;
	}
	if (strcmp(w[0], "load") == 0 && (nw < 2 || strcmp(w[1], "session") == 0)) {
		snprintf(why, n, "'%.60s': a lesson loads a machine config (load CONFIG), not a session", cmd);
		return -1;
	}
	return 0;
}

/* Every setup and predict.run command, checked when the lesson loads. */
static int check_commands(const struct lesson *l, const char *where, char **err)
{
	char why[200];
	for (int i = 0; i < l->nsetup; i++)
		if (lesson_command_check(l->setup[i], why, sizeof why)) {
			*err = xasprintf("%s: setup: %s", where, why);
			return -1;
		}
	for (int k = 0; k < l->nsteps; k++)
		for (int i = 0; i < l->steps[k].nrun; i++)
			if (lesson_command_check(l->steps[k].run[i], why, sizeof why)) {
				*err = xasprintf("%s: step %d: predict.run: %s", where, k + 1, why);
				return -1;
			}
	return 0;
}

/* "stat.NAME OP NUMBER" */
static int parse_cond(const char *text, char *name, size_t n, char *op, double *v)
{
	char nm[128], o[4];
	if (sscanf(text, "%127s %3s %lf", nm, o, v) != 3 || strncmp(nm, "stat.", 5) != 0)
		return -1;
	if (strcmp(o, "<") && strcmp(o, "<=") && strcmp(o, ">") && strcmp(o, ">=") && strcmp(o, "==") && strcmp(o, "!="))
		return -1;
	snprintf(name, n, "%s", nm + 5);
	snprintf(op, 4, "%s", o);
	return 0;
}

/* "record": {"NAME": "EXPR", ...}, and the ${...} of the explanation. */
static int parse_record(const cJSON *o, struct lstep *s, const char *where, char **err)
{
	char why[200];
	if (s->explain && lesson_interp_check(s->explain, why, sizeof why)) {
		*err = xasprintf("%s: explain: %s", where, why);
		return -1;
	}
	const cJSON *r = cJSON_GetObjectItemCaseSensitive(o, "record"), *it;
	if (r && !cJSON_IsObject(r)) {
		*err = xasprintf("%s: \"record\" is an object of names and values", where);
		return -1;
	}
	cJSON_ArrayForEach(it, r)
	{
		bool name_ok = it->string[0] && strlen(it->string) < sizeof ((struct lsaved *)0)->name;
		for (const char *c = it->string; *c; c++)
			name_ok &= isalnum((unsigned char)*c) || *c == '_';
		if (s->nrec == 4 || !name_ok || !cJSON_IsString(it) ||
		    lesson_expr_check(it->valuestring, why, sizeof why)) {
			*err = xasprintf("%s: record: '%s' must be a name (letters, digits, _) with a value (at most 4)%s%s",
					 where, it->string, cJSON_IsString(it) && name_ok && s->nrec < 4 ? ": " : "",
					 cJSON_IsString(it) && name_ok && s->nrec < 4 ? why : "");
			return -1;
		}
		s->rec_name[s->nrec] = xstrdup(it->string);
		s->rec_expr[s->nrec++] = xstrdup(it->valuestring);
	}
	return 0;
}

static int parse_step(const cJSON *o, struct lstep *s, const char *where, char **err)
{
	if (!cJSON_IsObject(o)) {
		*err = xasprintf("%s: a step must be an object", where);
		return -1;
	}
	s->text = dup_str(o, "text");
	s->hint = dup_str(o, "hint");
	s->explain = dup_str(o, "explain");
	if (!s->text) {
		*err = xasprintf("%s: \"text\" (a string) is required", where);
		return -1;
	}
	if (parse_record(o, s, where, err) || lesson_claims_parse(o, s, where, err))
		return -1;
	const cJSON *p = cJSON_GetObjectItemCaseSensitive(o, "predict");
	const cJSON *a = cJSON_GetObjectItemCaseSensitive(o, "action");
	if (!!p == !!a) {
		*err = xasprintf("%s: a step has exactly one of \"predict\" and \"action\"", where);
		return -1;
	}
	if (p) {
		s->predict = true;
		if (str_list(p, "run", &s->run, &s->nrun, where, err))
			return -1;
		s->value = dup_str(p, "value");
		char why[200];
		if (!s->value || lesson_expr_check(s->value, why, sizeof why)) {
			*err = xasprintf("%s: predict.value must be \"event.FIELD\", \"stat.NAME\", \"cycle\" or an "
					 "expression of them (%s)",
					 where, s->value ? why : "missing");
			return -1;
		}
		for (int i = 0; i < s->nrun; i++)
			if (lesson_interp_check(s->run[i], why, sizeof why)) {
				*err = xasprintf("%s: predict.run: %s", where, why);
				return -1;
			}
		const cJSON *t = cJSON_GetObjectItemCaseSensitive(p, "tolerance");
		if (t && (!cJSON_IsNumber(t) || t->valuedouble < 0)) {
			*err = xasprintf("%s: predict.tolerance must be a number >= 0", where);
			return -1;
		}
		s->tolerance = t ? t->valuedouble : 0;
		return 0;
	}
	s->breakpoint = dup_str(a, "breakpoint");
	s->stopped_at = dup_str(a, "stopped_at");
	s->stat = dup_str(a, "stat");
	const cJSON *fin = cJSON_GetObjectItemCaseSensitive(a, "finished");
	if (fin && !cJSON_IsBool(fin)) {
		*err = xasprintf("%s: action.finished must be true or false", where);
		return -1;
	}
	s->finished = cJSON_IsTrue(fin);
	if (!s->breakpoint && !s->stopped_at && !s->stat && !s->finished) {
		*err = xasprintf("%s: an action needs \"breakpoint\", \"stopped_at\", \"stat\" or \"finished\"", where);
		return -1;
	}
	const char *kinds[2] = {s->breakpoint, s->stopped_at};
	for (int i = 0; i < 2; i++)
		if (kinds[i] && event_find(kinds[i]) < 0) {
			*err = xasprintf("%s: unknown event kind '%s' (see `help events`)", where, kinds[i]);
			return -1;
		}
	const cJSON *w = cJSON_GetObjectItemCaseSensitive(a, "where"), *it;
	if (w && (!cJSON_IsObject(w) || !s->stopped_at)) {
		*err = xasprintf("%s: action.where is an object of event fields and goes with stopped_at", where);
		return -1;
	}
	cJSON_ArrayForEach(it, w)
	{
		/* A number, or the name of a coded field's value ("reason": "merges");
		 * "!=V" (a number or a name) asks for any other value. */
		unsigned kind = (unsigned)event_find(s->stopped_at), bit = event_field_resolve(kind, it->string);
		int64_t code = 0;
		bool ne = cJSON_IsString(it) && strncmp(it->valuestring, "!=", 2) == 0, named = false;
		if (cJSON_IsString(it) && bit) {
			const char *v = it->valuestring + (ne ? 2 : 0);
			char *end;
			long long n = strtoll(v, &end, 0);
			if (event_field_code(kind, bit, v, &code) == 0) {
				named = true;
			} else if (ne && end != v && !*end) {
				code = n;
				named = true;
			}
		}
		if (s->nwhere == 4 || !bit || !(cJSON_IsNumber(it) || named)) {
			char codes[300] = "";
			if (bit && cJSON_IsString(it))
				event_field_codes(kind, bit, codes, sizeof codes);
			*err = codes[0] ? xasprintf("%s: action.where: '%s' is not a value of %s's %s (one of: %s)", where,
						    it->valuestring, s->stopped_at, it->string, codes)
					: xasprintf("%s: action.where: '%s' is not a numeric field of %s (at most 4)", where,
						    it->string, s->stopped_at);
			return -1;
		}
		s->where_name[s->nwhere] = xstrdup(it->string);
		s->where_ne[s->nwhere] = ne;
		s->where_val[s->nwhere++] = named ? (long long)code : (long long)it->valuedouble;
	}
	char nm[128], op[4];
	double v;
	if (s->stat && parse_cond(s->stat, nm, sizeof nm, op, &v)) {
		*err = xasprintf("%s: action.stat must read \"stat.NAME OP NUMBER\", got '%s'", where, s->stat);
		return -1;
	}
	return 0;
}

/* Distinct names the steps record. */
static int count_saved(const struct lesson *l)
{
	int n = 0;
	for (int i = 0; i < l->nsteps; i++)
		for (int k = 0; k < l->steps[i].nrec; k++) {
			bool seen = false;
			for (int j = 0; j <= i && !seen; j++)
				for (int m = 0; m < (j == i ? k : l->steps[j].nrec) && !seen; m++)
					seen = strcmp(l->steps[j].rec_name[m], l->steps[i].rec_name[k]) == 0;
			n += !seen;
		}
	return n;
}

static struct lesson *parse(const char *text, const char *where, char **err)
{
	cJSON *root = cJSON_Parse(text);
	if (!root) {
		*err = xasprintf("%s: not valid JSON", where);
		return NULL;
	}
	struct lesson *l = xcalloc(1, sizeof *l);
	l->name = dup_str(root, "name");
	l->title = dup_str(root, "title");
	l->summary = dup_str(root, "summary");
	const cJSON *steps = cJSON_GetObjectItemCaseSensitive(root, "steps");
	if (!l->name || !l->title) {
		*err = xasprintf("%s: \"name\" and \"title\" (strings) are required", where);
		goto bad;
	}
	if (!lesson_name_ok(l->name)) {
		*err = xasprintf("%s: name '%.80s' must be 1 to %d letters, digits, '_' and '-'", where, l->name,
				 LESSON_NAME_MAX);
		goto bad;
	}
	if (str_list(root, "setup", &l->setup, &l->nsetup, where, err))
		goto bad;
	if (!cJSON_IsArray(steps) || cJSON_GetArraySize(steps) < 1) {
		*err = xasprintf("%s: \"steps\" must be a non-empty array", where);
		goto bad;
	}
	l->steps = xcalloc((size_t)cJSON_GetArraySize(steps), sizeof *l->steps);
	const cJSON *it;
	cJSON_ArrayForEach(it, steps)
	{
		char w[300];
		snprintf(w, sizeof w, "%s: step %d", where, l->nsteps + 1);
		if (parse_step(it, &l->steps[l->nsteps++], w, err))
			goto bad;
	}
	if (check_commands(l, where, err))
		goto bad;
	if (count_saved(l) > LESSON_MAX_SAVED) {
		*err = xasprintf("%s: more than %d names recorded", where, LESSON_MAX_SAVED);
		goto bad;
	}
	l->result = xcalloc((size_t)l->nsteps, sizeof *l->result);
	cJSON_Delete(root);
	return l;
bad:
	cJSON_Delete(root);
	lesson_free(l);
	return NULL;
}

struct lesson *lesson_load(const char *spec, char **err)
{
	char path[300];
	size_t n = strlen(spec);
	if (n > 5 && strcmp(spec + n - 5, ".json") == 0) {
		size_t len;
		char *text = loader_read_file(spec, &len, err);
		if (!text)
			return NULL;
		struct lesson *l = parse(text, spec, err);
		free(text);
		return l;
	}
	snprintf(path, sizeof path, "configs/lessons/%s.json", spec);
	const struct embedded_file *f = embedded_find(path);
	if (!f) {
		*err = xasprintf("no lesson '%s' (`gpustep lesson` lists them; a file must end in .json)", spec);
		return NULL;
	}
	return parse(f->data, spec, err);
}

void lesson_score(const struct lesson *l, int *passed, int *failed, int *total)
{
	*passed = *failed = 0;
	*total = l->nsteps;
	for (int i = 0; i < l->nsteps; i++) {
		*passed += l->result[i] == LR_PASS;
		*failed += l->result[i] == LR_FAIL;
	}
}

void lesson_report(const struct lesson *l, struct cmd_out *out)
{
	static const char *const names[] = {"not reached", "passed", "FAILED"};
	int p, f, t;
	lesson_score(l, &p, &f, &t);
	for (int i = 0; i < l->nsteps; i++)
		cmd_printf(out, "  step %d: %s", i + 1, names[l->result[i]]);
	cmd_printf(out, "lesson %s: %d of %d steps passed, %d failed", l->name, p, t, f);
}

/* ---- progress: $XDG_STATE_HOME/gpustep/lessons/NAME ----------------------- */
static int state_dir(char *buf, size_t n)
{
	const char *x = getenv("XDG_STATE_HOME"), *h = getenv("HOME");
	if (x && *x)
		snprintf(buf, n, "%s/gpustep/lessons", x);
	else if (h && *h)
		snprintf(buf, n, "%s/.local/state/gpustep/lessons", h);
	else
		return -1;
	return 0;
}

static int mkdirs(char *p)
{
	for (char *s = p + 1; *s; s++)
		if (*s == '/') {
			*s = 0;
			if (mkdir(p, 0700) && errno != EEXIST) {
				*s = '/';
				return -1;
			}
			*s = '/';
		}
	return mkdir(p, 0700) && errno != EEXIST ? -1 : 0;
}

int lesson_progress_path(const char *name, char *buf, size_t n)
{
	char dir[400];
	if (!lesson_name_ok(name) || state_dir(dir, sizeof dir))
		return -1;
	snprintf(buf, n, "%s/%s", dir, name);
	return 0;
}

/* A progress record that can be true: anything else (a damaged or hand-made
 * file) counts as no progress, so the next attempt replaces it. */
static bool progress_sane(const struct lesson_progress *p)
{
	return p->total > 0 && p->total <= 100000 && p->reached >= 0 && p->reached <= p->total && p->passed >= 0 &&
	       p->failed >= 0 && p->passed + p->failed <= p->total && p->passed + p->failed <= p->reached;
}

bool lesson_progress_read(const char *name, struct lesson_progress *p)
{
	char path[512];
	memset(p, 0, sizeof *p);
	if (lesson_progress_path(name, path, sizeof path))
		return false;
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
	struct stat st;
	if (fd < 0)
		return false;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		return false;
	}
	char buf[200];
	ssize_t got = read(fd, buf, sizeof buf - 1);
	close(fd);
	if (got <= 0)
		return false;
	buf[got] = 0;
	bool ok = sscanf(buf, "reached %d passed %d failed %d total %d", &p->reached, &p->passed, &p->failed,
			 &p->total) == 4 &&
		  progress_sane(p);
	if (!ok)
		memset(p, 0, sizeof *p);
	return ok;
}

void lesson_progress_save(const struct lesson *l)
{
	if (l->no_progress)
		return;
	char dir[400], path[512], tmp[530];
	if (!lesson_name_ok(l->name) || state_dir(dir, sizeof dir) || mkdirs(dir))
		return;
	struct lesson_progress old;
	int p, fl, t;
	lesson_score(l, &p, &fl, &t);
	int reached = l->cur;
	/* Keep the best attempt: a new attempt does not erase a finished one. */
	if (lesson_progress_read(l->name, &old) && old.total == t &&
	    (old.passed > p || (old.passed == p && old.reached > reached)))
		return;
	snprintf(path, sizeof path, "%s/%s", dir, l->name);
	/* A fresh temporary of an unpredictable name (never one that exists, so
	 * no symlink planted as NAME.tmp is followed), renamed over NAME. */
	snprintf(tmp, sizeof tmp, "%s.tmpXXXXXX", path);
	int fd = mkstemp(tmp);
	if (fd < 0)
		return;
	FILE *f = fdopen(fd, "w");
	if (!f) {
		close(fd);
		unlink(tmp);
		return;
	}
	fprintf(f, "reached %d passed %d failed %d total %d\n", reached, p, fl, t);
	if (fclose(f) != 0 || rename(tmp, path) != 0)
		unlink(tmp);
}
