/*
 * test_kexpr.c: the expression compiler and vector VM (engine/kernel/kexpr.c):
 * precedence and associativity, each operator's edge cases, constant folding
 * agreeing with the VM, hash determinism, and error columns.
 *
 * Identifiers for these tests: x = 10 (constant), u = uniform slot KU_BX
 * (set to 7), v = per-lane (the lane number), w = per-lane tid (tid0 = 100).
 */
#include <stdio.h>
#include <string.h>

#include "kernel/kexpr.h"
#include "test.h"
#include "sim/util.h"

static int test_resolve(void *ctx, const char *s, size_t len, struct kexpr_sym *out)
{
	(void)ctx;
	if (len == 1 && s[0] == 'x')
		*out = (struct kexpr_sym){KSYM_CONST, 10};
	else if (len == 1 && s[0] == 'u')
		*out = (struct kexpr_sym){KSYM_UNI, KU_BX};
	else if (len == 1 && s[0] == 'v')
		*out = (struct kexpr_sym){KSYM_LANE, KL_LANE};
	else if (len == 1 && s[0] == 'w')
		*out = (struct kexpr_sym){KSYM_LANE, KL_TID};
	else
		return -1;
	return 0;
}

static struct kexpr_env test_env(void)
{
	struct kexpr_env env;
	memset(&env, 0, sizeof(env));
	env.uni[KU_BX] = 7;
	env.tid0 = 100;
	return env;
}

/* Compile and evaluate at `lane`; fails the test on a compile error. */
static int64_t ev_seed(const char *text, unsigned lane, uint64_t seed)
{
	struct kexpr_code c;
	struct kexpr e;
	struct kexpr_err err = {0};
	size_t pos = 0;
	kexpr_code_init(&c, seed);
	int rc = kexpr_compile(&c, text, &pos, test_resolve, NULL, &e, &err);
	if (rc != 0 || text[pos] != '\0') {
		test_fail(__FILE__, __LINE__, "compiling \"%s\": col %u: %s", text, err.col, err.msg);
		kexpr_code_fini(&c);
		return INT64_MIN;
	}
	struct kexpr_env env = test_env();
	int64_t v = kexpr_eval1(&c, &e, &env, lane);
	kexpr_code_fini(&c);
	return v;
}

static int64_t ev(const char *text)
{
	return ev_seed(text, 0, 1);
}

/* Compile error: returns the column (0 if it compiled) and copies the message. */
static unsigned ev_err(const char *text, char *msg, size_t msglen)
{
	struct kexpr_code c;
	struct kexpr e;
	struct kexpr_err err = {0};
	size_t pos = 0;
	kexpr_code_init(&c, 1);
	int rc = kexpr_compile(&c, text, &pos, test_resolve, NULL, &e, &err);
	kexpr_code_fini(&c);
	snprintf(msg, msglen, "%s", rc ? err.msg : "");
	return rc ? err.col : 0;
}

TEST(kexpr_precedence)
{
	CHECK_EQ(ev("1+2*3"), 7);
	CHECK_EQ(ev("(1+2)*3"), 9);
	CHECK_EQ(ev("2*3%4"), 2);
	CHECK_EQ(ev("1<<2+1"), 8);
	CHECK_EQ(ev("1+2<<1"), 6);
	CHECK_EQ(ev("6&3|8"), 10);
	CHECK_EQ(ev("1|2^3"), 1);
	CHECK_EQ(ev("5^3&1"), 4);
	CHECK_EQ(ev("1<2==1"), 1);
	CHECK_EQ(ev("2==2<3"), 0);
	CHECK_EQ(ev("3&4==4"), 1); /* == binds tighter than &, as in C */
	CHECK_EQ(ev("1||0&&0"), 1);
	CHECK_EQ(ev("-2*3"), -6);
	CHECK_EQ(ev("-(2+3)"), -5);
	CHECK_EQ(ev("- -3"), 3);
	CHECK_EQ(ev("~0"), -1);
	CHECK_EQ(ev("~x+1"), -10);
	CHECK_EQ(ev(" ( x ) * ( x ) "), 100);
}

TEST(kexpr_left_associative)
{
	CHECK_EQ(ev("10-4-3"), 3);
	CHECK_EQ(ev("100/10/5"), 2);
	CHECK_EQ(ev("100%7%4"), 2);
	CHECK_EQ(ev("256>>2>>1"), 32);
	CHECK_EQ(ev("1<<2<<3"), 32);
	CHECK_EQ(ev("3<2<1"), 1); /* (3<2)<1 = 0<1 */
}

TEST(kexpr_operators)
{
	CHECK_EQ(ev("7+5"), 12);
	CHECK_EQ(ev("7-9"), -2);
	CHECK_EQ(ev("-7*3"), -21);
	CHECK_EQ(ev("-7/2"), -3); /* truncates toward zero */
	CHECK_EQ(ev("-7%2"), -1);
	CHECK_EQ(ev("7%-2"), 1);
	CHECK_EQ(ev("7/0"), 0);
	CHECK_EQ(ev("7%0"), 0);
	CHECK_EQ(ev("1<<64"), 1); /* shift count masked to 0..63 */
	CHECK_EQ(ev("1<<65"), 2);
	CHECK_EQ(ev("-8>>1"), -4); /* arithmetic */
	CHECK_EQ(ev("-1>>63"), -1);
	CHECK_EQ(ev("12&10"), 8);
	CHECK_EQ(ev("12|10"), 14);
	CHECK_EQ(ev("12^10"), 6);
	CHECK_EQ(ev("3<4") + ev("4<4") * 10, 1);
	CHECK_EQ(ev("4<=4") + ev("5<=4") * 10, 1);
	CHECK_EQ(ev("5>4") + ev("4>4") * 10, 1);
	CHECK_EQ(ev("4>=4") + ev("3>=4") * 10, 1);
	CHECK_EQ(ev("4==4") + ev("3==4") * 10, 1);
	CHECK_EQ(ev("3!=4") + ev("4!=4") * 10, 1);
	CHECK_EQ(ev("3&&4"), 1);
	CHECK_EQ(ev("3&&0"), 0);
	CHECK_EQ(ev("0||0"), 0);
	CHECK_EQ(ev("0||-2"), 1);
	CHECK_EQ(ev("!5"), 0);
	CHECK_EQ(ev("!0"), 1);
	CHECK_EQ(ev("min(3,-4)"), -4);
	CHECK_EQ(ev("max(3,-4)"), 3);
	CHECK_EQ(ev("min(max(1,2),max(0,x))"), 2);
	CHECK_EQ(ev("0x10 + 0b101 + 010"), 16 + 5 + 10);
	CHECK_EQ(ev("9223372036854775807 + 1"), INT64_MIN); /* wraps */
	CHECK_EQ(ev("(-9223372036854775807-1) / -1"), INT64_MIN);
	CHECK_EQ(ev("(-9223372036854775807-1) % -1"), 0);
}

TEST(kexpr_identifiers_and_lanes)
{
	CHECK_EQ(ev("x"), 10);
	CHECK_EQ(ev("u"), 7);
	CHECK_EQ(ev_seed("v", 5, 1), 5);
	CHECK_EQ(ev_seed("w", 5, 1), 105);
	CHECK_EQ(ev_seed("u*100 + v*x", 3, 1), 730);
	/* Division by a per-lane zero in the VM (not folded). */
	CHECK_EQ(ev_seed("(v+5)/(v-v)", 9, 1), 0);
	CHECK_EQ(ev_seed("(v+5)%(v-v)", 9, 1), 0);
}

/* Constant folding and the vector VM must agree on every operator. */
TEST(kexpr_fold_matches_vm)
{
	static const char *const exprs[] = {
	    "v*3 - 7",  "(v-5)/3",     "(v-5)%3",       "(v-16)/4",      "(v-16)%8", "(v-16)/1",
	    "(v-16)%1", "(v-9)%(0-4)", "(v-16)<<(v%5)", "(v-16)>>(v%3)", "v&5",      "v|5",
	    "v^5",      "v<9",         "v<=9",          "v>9",           "v>=9",     "v==9",
	    "v!=9",     "v&&(v-3)",    "v||0",          "min(v,9)",      "max(v,9)", "-v",
	    "~v",       "!v",          "hash(v)",       "7/(v-4)",       "u*v + x",  "max(u, v) * min(x, v)",
	};
	struct kexpr_code c;
	kexpr_code_init(&c, 42);
	struct kexpr_env env = test_env();
	struct kexpr_stack st;
	for (size_t i = 0; i < ARRAY_LEN(exprs); i++) {
		struct kexpr e;
		struct kexpr_err err = {0};
		size_t pos = 0;
		REQUIRE(kexpr_compile(&c, exprs[i], &pos, test_resolve, NULL, &e, &err) == 0);
		bool uni;
		const int64_t *r = kexpr_eval(&c, &e, &env, 0, 32, &st, &uni);
		CHECK(!uni);
		for (unsigned lane = 0; lane < 32; lane++) {
			/* The same expression with v replaced by a literal folds at compile time. */
			char text[128], *o = text;
			for (const char *p = exprs[i]; *p; p++)
				o += *p == 'v' ? sprintf(o, "(%u)", lane)
				               : sprintf(o, "%c", *p == 'u' ? '7' : *p);
			CHECK_EQ(r[lane], ev_seed(text, 0, 42));
		}
	}
	kexpr_code_fini(&c);
}

TEST(kexpr_folds_constants)
{
	struct kexpr_code c;
	struct kexpr e;
	struct kexpr_err err = {0};
	size_t pos = 0;
	kexpr_code_init(&c, 1);
	REQUIRE(kexpr_compile(&c, "x*4 + (1<<3) - min(2, x)", &pos, test_resolve, NULL, &e, &err) == 0);
	CHECK(e.is_const);
	CHECK_EQ(e.value, 46);
	CHECK_EQ(e.len, 1);
	pos = 0;
	REQUIRE(kexpr_compile(&c, "v + x*256", &pos, test_resolve, NULL, &e, &err) == 0);
	CHECK(!e.is_const);
	CHECK(e.varying);
	CHECK_EQ(e.len, 3); /* v, 2560, + */
	kexpr_code_fini(&c);
}

TEST(kexpr_hash_seeded)
{
	CHECK_EQ(ev_seed("hash(5)", 0, 1), ev_seed("hash(5)", 0, 1));
	CHECK(ev_seed("hash(5)", 0, 1) != ev_seed("hash(5)", 0, 2));
	CHECK(ev_seed("hash(5)", 0, 1) != ev_seed("hash(6)", 0, 1));
	CHECK_EQ(ev_seed("hash(5)", 0, 9), (int64_t)(mix64(5 ^ mix64(9)) >> 1));
	/* Folded and VM hashes agree; hash is non-negative so % n stays in range. */
	CHECK_EQ(ev_seed("hash(v)", 5, 3), ev_seed("hash(5)", 0, 3));
	for (unsigned lane = 0; lane < 64; lane++) {
		int64_t h = ev_seed("hash(v*7919) % 10", lane, 11);
		CHECK(h >= 0 && h < 10);
	}
}

TEST(kexpr_stops_before_annotations)
{
	struct kexpr_code c;
	struct kexpr e;
	struct kexpr_err err = {0};
	kexpr_code_init(&c, 1);
	const char *t1 = "v*4 -> r1";
	size_t pos = 0;
	REQUIRE(kexpr_compile(&c, t1, &pos, test_resolve, NULL, &e, &err) == 0);
	CHECK_EQ(pos, 4);
	const char *t2 = "v <- r2, r3";
	pos = 0;
	REQUIRE(kexpr_compile(&c, t2, &pos, test_resolve, NULL, &e, &err) == 0);
	CHECK_EQ(pos, 2);
	const char *t3 = "x] tail";
	pos = 0;
	REQUIRE(kexpr_compile(&c, t3, &pos, test_resolve, NULL, &e, &err) == 0);
	CHECK_EQ(pos, 1);
	kexpr_code_fini(&c);
	CHECK_EQ(ev("x <-1"), 0); /* a comparison with -1, not an annotation */
	CHECK_EQ(ev("x<-1+20"), 1);
}

TEST(kexpr_errors)
{
	char msg[160];
	CHECK_EQ(ev_err("1+", msg, sizeof msg), 3);
	CHECK_STR(msg, "expected an operand");
	CHECK_EQ(ev_err("(1+2", msg, sizeof msg), 5);
	CHECK_STR(msg, "expected ')'");
	CHECK_EQ(ev_err("x + foo", msg, sizeof msg), 5);
	CHECK_STR(msg, "unknown identifier 'foo'");
	CHECK_EQ(ev_err("min(1)", msg, sizeof msg), 6);
	CHECK_CONTAINS(msg, "expected ','");
	CHECK_EQ(ev_err("min(1,2,3)", msg, sizeof msg), 8);
	CHECK_STR(msg, "min() takes 2 arguments");
	CHECK_EQ(ev_err("hash(1,2)", msg, sizeof msg), 7);
	CHECK_STR(msg, "hash() takes 1 argument");
	CHECK_EQ(ev_err("hash 3", msg, sizeof msg), 6);
	CHECK_STR(msg, "expected '(' after function name");
	CHECK_EQ(ev_err("12a", msg, sizeof msg), 3);
	CHECK_STR(msg, "bad digit 'a' in integer literal");
	CHECK_EQ(ev_err("2 + 99999999999999999999", msg, sizeof msg), 5);
	CHECK_STR(msg, "integer literal out of range");
	CHECK_EQ(ev_err("0x", msg, sizeof msg), 1);
	CHECK_STR(msg, "integer literal has no digits");
	CHECK_EQ(ev_err("3 * $", msg, sizeof msg), 5);
	CHECK_STR(msg, "unexpected character '$'");
	CHECK_EQ(ev_err("", msg, sizeof msg), 1);
	CHECK_STR(msg, "expected an operand");
	CHECK_EQ(ev_err("((((((((((((((((((1))))))))))))))))))", msg, sizeof msg), 0);
	CHECK(ev_err("1+(1+(1+(1+(1+(1+(1+(1+(1+(1+(1+(1+(1+(1+(1+(1+(1+v))))))))))))))))", msg, sizeof msg) >
	      0);
	CHECK_CONTAINS(msg, "too deeply nested");
}
