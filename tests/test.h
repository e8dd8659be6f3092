/*
 * test.h: a tiny unit-test framework for the engine and UI test binaries.
 *
 *   TEST(cache_hit) { CHECK_EQ(hits, 1); CHECK_STR(name, "l1"); }
 *
 * Tests register themselves (constructor attribute), so adding a file under
 * tests/unit/ or tests/ui/ is all it takes. tests/test_main.c is the runner:
 *
 *   unit_tests [FILTER] [--results FILE] [--list]
 *
 * Every failing check prints one line "file:line: test: message"; a test
 * passes when none of its checks failed. REQUIRE() stops the current test.
 * The last line is "N passed, N failed".
 */
#ifndef GPUSTEP_TEST_H
#define GPUSTEP_TEST_H

#include <setjmp.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

struct test_case {
	const char *name;
	void (*fn)(void);
	const char *file;
	int line;
	struct test_case *next;
};

void test_register(struct test_case *t);
void test_fail(const char *file, int line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void test_abort(void) __attribute__((noreturn));
bool test_str_eq(const char *a, const char *b);
bool test_contains(const char *hay, const char *needle);

#define TEST(tname)                                                                                \
	static void test_fn_##tname(void);                                                         \
	static struct test_case test_case_##tname = {#tname, test_fn_##tname, __FILE__, __LINE__, NULL}; \
	__attribute__((constructor)) static void test_reg_##tname(void) { test_register(&test_case_##tname); } \
	static void test_fn_##tname(void)

#define CHECK(cond)                                                                                \
	do {                                                                                       \
		if (!(cond))                                                                       \
			test_fail(__FILE__, __LINE__, "CHECK(%s) failed", #cond);                  \
	} while (0)

/* Stops the test when cond is false (later checks would crash). */
#define REQUIRE(cond)                                                                              \
	do {                                                                                       \
		if (!(cond)) {                                                                     \
			test_fail(__FILE__, __LINE__, "REQUIRE(%s) failed", #cond);                \
			test_abort();                                                              \
		}                                                                                  \
	} while (0)

#define CHECK_EQ(a, b)                                                                             \
	do {                                                                                       \
		long long chk_a_ = (long long)(a), chk_b_ = (long long)(b);                        \
		if (chk_a_ != chk_b_)                                                              \
			test_fail(__FILE__, __LINE__, "CHECK_EQ(%s, %s): %lld != %lld", #a, #b,    \
				  chk_a_, chk_b_);                                                 \
	} while (0)

#define CHECK_STR(a, b)                                                                            \
	do {                                                                                       \
		const char *chk_a_ = (a), *chk_b_ = (b);                                           \
		if (!test_str_eq(chk_a_, chk_b_))                                                  \
			test_fail(__FILE__, __LINE__, "CHECK_STR(%s, %s): \"%s\" != \"%s\"", #a,   \
				  #b, chk_a_ ? chk_a_ : "(null)", chk_b_ ? chk_b_ : "(null)");     \
	} while (0)

/* hay contains needle (both non-NULL). */
#define CHECK_CONTAINS(hay, needle)                                                                \
	do {                                                                                       \
		const char *chk_h_ = (hay), *chk_n_ = (needle);                                    \
		if (!test_contains(chk_h_, chk_n_))                                                \
			test_fail(__FILE__, __LINE__, "CHECK_CONTAINS(%s, %s): \"%s\" lacks \"%s\"", \
				  #hay, #needle, chk_h_ ? chk_h_ : "(null)", chk_n_ ? chk_n_ : "(null)"); \
	} while (0)

#define CHECK_NEAR(a, b, eps)                                                                      \
	do {                                                                                       \
		double chk_a_ = (double)(a), chk_b_ = (double)(b), chk_e_ = (double)(eps);         \
		if (!(chk_a_ - chk_b_ <= chk_e_ && chk_b_ - chk_a_ <= chk_e_))                     \
			test_fail(__FILE__, __LINE__, "CHECK_NEAR(%s, %s, %s): %.17g vs %.17g", #a, #b, \
				  #eps, chk_a_, chk_b_);                                           \
	} while (0)

#endif
