/*
 * test_lesson_expr.c: lesson values (lesson/lesson_expr.c): expressions over
 * stats, the stop event, the cycle and recorded values; ${...} in run
 * commands and explanations; names of coded fields as answers; and the
 * messages for malformed ones, at load time and at answer time; an action's
 * `where` with a coded field's value by name.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lesson/lesson.h"
#include "lesson/lesson_int.h"
#include "sesstest.h"
#include "sim/evcode.h"
#include "sim/stats.h"
#include "test.h"

static double stat_of(struct fx *f, const char *name)
{
	const struct stats *st = sim_stats_c(f->ss.sim);
	int id = stats_find(st, name);
	REQUIRE(id >= 0);
	return stats_value(st, (uint32_t)id);
}

TEST(lesson_expr_reads_stats_events_cycle_and_saved_values)
{
	struct fx f;
	fx_init_wl(&f, "vecadd");
	REQUIRE(fx_run(&f, "until l1.miss sm=1") & CMD_RUN);
	struct lesson l = {0};
	double v;
	char why[160];
	REQUIRE(lesson_expr_eval(&f.ss, &l, "event.sm + 2 * 3", &v, why, sizeof why) == 0);
	CHECK_EQ((long long)v, 7);
	REQUIRE(lesson_expr_eval(&f.ss, &l, "cycle - stat.l1.misses", &v, why, sizeof why) == 0);
	CHECK_EQ((long long)v, (long long)(sim_cycle(f.ss.sim) - (uint64_t)stat_of(&f, "l1.misses")));
	REQUIRE(lesson_expr_eval(&f.ss, &l, "(1 - 4) * -2 / 3 + abs(-5) + min(2, 9) + max(2, 9)", &v, why, sizeof why) == 0);
	CHECK_EQ((long long)v, 18);
	REQUIRE(lesson_expr_eval(&f.ss, &l, "sign(3 - 7)", &v, why, sizeof why) == 0);
	CHECK_EQ((long long)v, -1);
	lesson_save(&l, "x", 40);
	lesson_save(&l, "x", 41); /* the newest value wins */
	REQUIRE(lesson_expr_eval(&f.ss, &l, "saved.x + 1", &v, why, sizeof why) == 0);
	CHECK_EQ((long long)v, 42);
	CHECK_EQ(l.nsaved, 1);
	/* Values that cannot be read say why. */
	CHECK(lesson_expr_eval(&f.ss, &l, "saved.nope", &v, why, sizeof why) < 0);
	CHECK_CONTAINS(why, "nothing recorded as 'nope'");
	CHECK(lesson_expr_eval(&f.ss, &l, "stat.no.such", &v, why, sizeof why) < 0);
	CHECK_CONTAINS(why, "no stat 'no.such'");
	CHECK(lesson_expr_eval(&f.ss, &l, "event.dist", &v, why, sizeof why) < 0);
	CHECK_CONTAINS(why, "l1.miss has no field 'dist'");
	CHECK(lesson_expr_eval(&f.ss, &l, "1 / (2 - 2)", &v, why, sizeof why) < 0);
	CHECK_CONTAINS(why, "division by zero");
	fx_fini(&f);
}

TEST(lesson_expr_syntax_is_checked_without_a_machine)
{
	char why[160];
	CHECK_EQ(lesson_expr_check("sign(stat.dram.row_hits - saved.a)", why, sizeof why), 0);
	CHECK_EQ(lesson_expr_check("abs(event.to - event.from)", why, sizeof why), 0);
	CHECK(lesson_expr_check("banana", why, sizeof why) < 0);
	CHECK_CONTAINS(why, "'banana' is not a value");
	CHECK(lesson_expr_check("(1 + 2", why, sizeof why) < 0);
	CHECK_CONTAINS(why, "missing ')'");
	CHECK(lesson_expr_check("min(1)", why, sizeof why) < 0);
	CHECK_CONTAINS(why, "min takes two arguments");
	CHECK(lesson_expr_check("1 2", why, sizeof why) < 0);
	CHECK_CONTAINS(why, "unexpected '2'");
	CHECK(lesson_expr_check("", why, sizeof why) < 0);
	char deep[400];
	memset(deep, '(', 200);
	snprintf(deep + 200, sizeof deep - 200, "1");
	CHECK(lesson_expr_check(deep, why, sizeof why) < 0);
	CHECK_CONTAINS(why, "nested too deeply");
	CHECK_EQ(lesson_interp_check("until x sm=${event.sm} a=${saved.b:x}", why, sizeof why), 0);
	CHECK(lesson_interp_check("until x sm=${event.sm", why, sizeof why) < 0);
	CHECK_CONTAINS(why, "without its '}'");
}

TEST(lesson_interp_fills_values_in_decimal_and_hex)
{
	struct fx f;
	fx_init_wl(&f, "vecadd");
	REQUIRE(fx_run(&f, "until l1.miss sm=1") & CMD_RUN);
	struct lesson l = {0};
	char why[160], want[200];
	char *s = lesson_interp(&f.ss, &l, "until l1.fill sm=${event.sm} addr=${event.addr:x} ${1/2}", why, sizeof why);
	REQUIRE(s);
	snprintf(want, sizeof want, "until l1.fill sm=1 addr=0x%llx 0.5", (unsigned long long)f.ss.bps.stop_ev.addr);
	CHECK_STR(s, want);
	free(s);
	CHECK(lesson_interp(&f.ss, &l, "${saved.none}", why, sizeof why) == NULL);
	CHECK_CONTAINS(why, "nothing recorded");
	fx_fini(&f);
}

/* A lesson file made from json under a mkstemps name built from LESSON_TMP
 * (its XXXXXX replaced); the caller removes it. */
#define LESSON_TMP "/tmp/gpustep-lesson-XXXXXX.json"
static bool write_lesson(char *path, const char *json)
{
	int fd = mkstemps(path, 5);
	if (fd < 0)
		return false;
	FILE *fp = fdopen(fd, "w");
	if (!fp)
		return false;
	fputs(json, fp);
	return fclose(fp) == 0;
}

/* A teacher's lesson: a step records a value, a later step's run command
 * and explanation use it, and a coded field is answered by name. */
static const char lesson_json[] =
    "{\"name\": \"t\", \"title\": \"t\", \"setup\": [\"load teaching\", \"workload vecadd\"],"
    " \"steps\": ["
    "  {\"text\": \"a\", \"predict\": {\"run\": [\"until l1.miss sm=1\"], \"value\": \"event.sm\"},"
    "   \"record\": {\"where\": \"event.addr\"}, \"explain\": \"line ${saved.where:x}\"},"
    "  {\"text\": \"b\", \"predict\": {\"run\": [\"until l1.fill addr=${saved.where}\"], \"value\": \"event.addr - saved.where\"}},"
    "  {\"text\": \"c\", \"predict\": {\"run\": [\"until warp.stall\"], \"value\": \"event.reason\"}}"
    " ]}";

TEST(lesson_records_and_uses_values_and_takes_names_as_answers)
{
	char path[] = LESSON_TMP;
	REQUIRE(write_lesson(path, lesson_json));
	struct fx f;
	fx_init_wl(&f, "vecadd");
	char cmd[80];
	snprintf(cmd, sizeof cmd, "lesson %s", path);
	REQUIRE(!(fx_run(&f, cmd) & CMD_ERR));
	f.ss.lesson->no_progress = true;
	CHECK(!(fx_run(&f, "answer 1") & CMD_ERR));
	char want[80];
	snprintf(want, sizeof want, "line 0x%llx", (unsigned long long)f.ss.bps.stop_ev.addr);
	CHECK_CONTAINS(f.cap.out.s, want);
	CHECK(!(fx_run(&f, "answer 0") & CMD_ERR));
	CHECK_CONTAINS(f.cap.out.s, "Right: event.addr - saved.where is 0.");
	CHECK_EQ(f.ss.bps.stop_ev.kind, EV_L1_FILL);
	/* A name that is no value of the field is refused before anything runs. */
	uint64_t c0 = sim_cycle(f.ss.sim);
	CHECK(fx_run(&f, "answer banana") & CMD_ERR);
	CHECK_CONTAINS(f.cap.err.s, "one of:");
	CHECK_EQ(sim_cycle(f.ss.sim), c0);
	CHECK(!(fx_run(&f, "answer scoreboard") & CMD_ERR));
	bool named = strstr(f.cap.out.s, "Right: event.reason is ") || strstr(f.cap.out.s, "the machine shows event.reason = ");
	CHECK(named);
	CHECK(strstr(f.cap.out.s, "event.reason = 1.") == NULL); /* shown by name, not number */
	int p, fl, t;
	lesson_score(f.ss.lesson, &p, &fl, &t);
	CHECK_EQ(t, 3);
	CHECK(p >= 2);
	fx_fini(&f);
	remove(path);
}

TEST(lesson_load_names_bad_values_records_and_placeholders)
{
	static const struct {
		const char *json, *msg;
	} bad[] = {
	    {"{\"name\": \"x\", \"title\": \"t\", \"steps\": [{\"text\": \"a\", \"predict\": {\"value\": \"1 +\"}}]}",
	     "step 1: predict.value must be"},
	    {"{\"name\": \"x\", \"title\": \"t\", \"steps\": [{\"text\": \"a\", \"predict\": {\"value\": \"cycle\", \"run\": [\"until ${x\"]}}]}",
	     "step 1: predict.run: '${' without its '}'"},
	    {"{\"name\": \"x\", \"title\": \"t\", \"steps\": [{\"text\": \"a\", \"predict\": {\"value\": \"cycle\"}, \"record\": {\"a b\": \"cycle\"}}]}",
	     "step 1: record: 'a b' must be a name"},
	    {"{\"name\": \"x\", \"title\": \"t\", \"steps\": [{\"text\": \"a\", \"predict\": {\"value\": \"cycle\"}, \"record\": {\"ab\": \"pear\"}}]}",
	     "'pear' is not a value"},
	    {"{\"name\": \"x\", \"title\": \"t\", \"steps\": [{\"text\": \"a\", \"explain\": \"${nope}\", \"predict\": {\"value\": \"cycle\"}}]}",
	     "step 1: explain: 'nope' is not a value"},
	    {"{\"name\": \"x\", \"title\": \"t\", \"steps\": [{\"text\": \"a\", \"action\": {\"stopped_at\": \"l1.mshr_full\", \"where\": {\"reason\": \"slots\"}}}]}",
	     "step 1: action.where: 'slots' is not a value of l1.mshr_full's reason (one of: entries merges"},
	    {"{\"name\": \"x\", \"title\": \"t\", \"steps\": [{\"text\": \"a\", \"action\": {\"stopped_at\": \"l1.mshr_full\", \"where\": {\"sm\": \"one\"}}}]}",
	     "step 1: action.where: 'sm' is not a numeric field of l1.mshr_full"},
	    {"{\"name\": \"x\", \"title\": \"t\", \"steps\": [{\"text\": \"a\", \"action\": {\"stopped_at\": \"l1.mshr_full\", \"where\": {\"warp\": \"!=x\"}}}]}",
	     "step 1: action.where: 'warp' is not a numeric field of l1.mshr_full"},
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		char path[] = LESSON_TMP;
		REQUIRE(write_lesson(path, bad[i].json));
		char *err = NULL;
		struct lesson *l = lesson_load(path, &err);
		CHECK(l == NULL);
		if (err)
			CHECK_CONTAINS(err, bad[i].msg);
		free(err);
		lesson_free(l);
		remove(path);
	}
}

/* An action's `where` takes a coded field's value by name ("reason":
 * "merges", as mshrs step 5 does): a stop with another reason is "Not yet"
 * and says the name; the stop the step asks for passes. "!=V" asks for any
 * other value (racetrack step 10: "warp": "!=0"). */
static const char where_json[] =
    "{\"name\": \"where_names\", \"title\": \"t\","
    " \"setup\": [\"load teaching\", \"workload vecadd\", \"set core.coalescer si\"],"
    " \"steps\": [{\"text\": \"stop at a merge refusal\","
    "   \"action\": {\"breakpoint\": \"l1.mshr_full\", \"stopped_at\": \"l1.mshr_full\", \"where\": {\"reason\": \"merges\"}}},"
    "  {\"text\": \"stop at another refusal\","
    "   \"action\": {\"stopped_at\": \"l1.mshr_full\", \"where\": {\"reason\": \"!=merges\"}}}]}";

TEST(lesson_action_where_takes_value_names)
{
	char path[] = LESSON_TMP;
	REQUIRE(write_lesson(path, where_json));
	struct fx f;
	fx_init_wl(&f, "vecadd");
	char cmd[80];
	snprintf(cmd, sizeof cmd, "lesson %s", path);
	REQUIRE(!(fx_run(&f, cmd) & CMD_ERR));
	f.ss.lesson->no_progress = true;
	/* 4 merge slots (SI: a load in two halves): the first refusal is another
	 * kind (a warp held at issue). */
	CHECK(!(fx_run(&f, "break l1.mshr_full") & CMD_ERR));
	CHECK(!(fx_run(&f, "continue") & CMD_ERR));
	REQUIRE(f.ss.bps.stop_ev.kind == EV_L1_MSHR_FULL);
	CHECK(event_field_value(&f.ss.bps.stop_ev, event_field_resolve(EV_L1_MSHR_FULL, "reason")) != EVM_MERGES);
	fx_clear(&f);
	CHECK_EQ(fx_run(&f, "answer"), CMD_OK);
	CHECK_CONTAINS(f.cap.out.s, "Not yet: the run stopped at l1.mshr_full, but not with reason=merges.");
	CHECK_EQ(f.ss.lesson->cur, 0);
	/* One slot: the second half of a load is refused for want of a slot. */
	CHECK(!(fx_run(&f, "run 0") & CMD_ERR));
	CHECK(!(fx_run(&f, "set l1.mshr.merges 1") & CMD_ERR));
	CHECK(!(fx_run(&f, "continue") & CMD_ERR));
	CHECK_EQ(event_field_value(&f.ss.bps.stop_ev, event_field_resolve(EV_L1_MSHR_FULL, "reason")), EVM_MERGES);
	fx_clear(&f);
	CHECK_EQ(fx_run(&f, "answer"), CMD_OK);
	CHECK_CONTAINS(f.cap.out.s, "Done.");
	CHECK_EQ(f.ss.lesson->cur, 1);
	/* Step 2, "reason": "!=merges": this stop is "Not yet"; one of another
	 * reason passes. */
	fx_clear(&f);
	CHECK_EQ(fx_run(&f, "answer"), CMD_OK);
	CHECK_CONTAINS(f.cap.out.s, "Not yet: the run stopped at l1.mshr_full, but not with reason!=merges.");
	CHECK_EQ(f.ss.lesson->cur, 1);
	unsigned rbit = event_field_resolve(EV_L1_MSHR_FULL, "reason");
	for (int i = 0; i < 100 && event_field_value(&f.ss.bps.stop_ev, rbit) == EVM_MERGES; i++)
		CHECK(!(fx_run(&f, "continue") & CMD_ERR));
	REQUIRE(event_field_value(&f.ss.bps.stop_ev, rbit) != EVM_MERGES);
	fx_clear(&f);
	CHECK_EQ(fx_run(&f, "answer"), CMD_OK);
	CHECK_CONTAINS(f.cap.out.s, "Done.");
	CHECK_EQ(f.ss.lesson->cur, 2);
	fx_fini(&f);
	remove(path);
}
