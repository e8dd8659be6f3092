/*
 * trace_op.c: SASS opcode -> class (trace.h enum tcls), access size and cache
 * operator flags, for Fermi through Hopper mnemonics as the NVBit tracer
 * prints them ("LDG.E.64.SYS", "BAR.SYNC.DEFER_BLOCKING", "IMAD.MOV.U32").
 *
 * The class is decided by the base mnemonic (up to the first '.'), except
 * BAR.ARV (arrive without waiting: not a barrier). Texture and surface reads
 * and writes go to the global path (no texture cache is modelled). Any
 * mnemonic in no list is TC_UNKNOWN: replayed as ALU, and listed once by the
 * front end.
 */
#include <stdbool.h>
#include <string.h>

#include "trace.h"
#include "kernel/kernel.h"
#include "sim/util.h"

struct opname {
	const char *name;
	unsigned char cls;
};

/* Sorted by name (binary search). */
static const struct opname ops[] = {
	{"ACQBULK", TC_MISC},   {"AL2P", TC_MISC},     {"ALD", TC_MISC},      {"AST", TC_MISC},
	{"ATOM", TC_ATOM},      {"ATOMG", TC_ATOMG},   {"ATOMS", TC_ATOMS},   {"B2R", TC_MISC},
	{"BAR", TC_BAR},        {"BFE", TC_ALU},       {"BFI", TC_ALU},       {"BMMA", TC_TENSOR},
	{"BMOV", TC_BRANCH},    {"BMSK", TC_ALU},      {"BPT", TC_BRANCH},    {"BRA", TC_BRANCH},
	{"BREAK", TC_BRANCH},   {"BREV", TC_ALU},      {"BRK", TC_BRANCH},    {"BRX", TC_BRANCH},
	{"BRXU", TC_BRANCH},    {"BSSY", TC_BRANCH},   {"BSYNC", TC_BRANCH},  {"CALL", TC_BRANCH},
	{"CCTL", TC_MISC},      {"CCTLL", TC_MISC},    {"CCTLT", TC_MISC},    {"CONT", TC_BRANCH},
	{"CS2R", TC_MISC},      {"CSET", TC_ALU},      {"CSETP", TC_ALU},     {"DADD", TC_DP},
	{"DEPBAR", TC_MISC},    {"DFMA", TC_DP},       {"DMMA", TC_TENSOR},   {"DMNMX", TC_DP},
	{"DMUL", TC_DP},        {"DSET", TC_DP},       {"DSETP", TC_DP},      {"ERRBAR", TC_MISC},
	{"EXIT", TC_EXIT},      {"F2F", TC_ALU},       {"F2FP", TC_ALU},      {"F2I", TC_ALU},
	{"F2IP", TC_ALU},       {"FADD", TC_ALU},      {"FADD32I", TC_ALU},   {"FCHK", TC_ALU},
	{"FCMP", TC_ALU},       {"FENCE", TC_MISC},    {"FFMA", TC_ALU},      {"FFMA32I", TC_ALU},
	{"FLO", TC_ALU},        {"FMNMX", TC_ALU},     {"FMUL", TC_ALU},      {"FMUL32I", TC_ALU},
	{"FRND", TC_ALU},       {"FSEL", TC_ALU},      {"FSET", TC_ALU},      {"FSETP", TC_ALU},
	{"FSWZADD", TC_ALU},    {"HADD2", TC_ALU},     {"HADD2_32I", TC_ALU}, {"HFMA2", TC_ALU},
	{"HFMA2_32I", TC_ALU},  {"HGMMA", TC_TENSOR},  {"HMMA", TC_TENSOR},   {"HMNMX2", TC_ALU},
	{"HMUL2", TC_ALU},      {"HMUL2_32I", TC_ALU}, {"HSET2", TC_ALU},     {"HSETP2", TC_ALU},
	{"I2F", TC_ALU},        {"I2FP", TC_ALU},      {"I2I", TC_ALU},       {"I2IP", TC_ALU},
	{"IABS", TC_ALU},       {"IADD", TC_ALU},      {"IADD3", TC_ALU},     {"IADD32I", TC_ALU},
	{"ICMP", TC_ALU},       {"IDP", TC_ALU},       {"IDP4A", TC_ALU},     {"IGMMA", TC_TENSOR},
	{"IMAD", TC_ALU},       {"IMADSP", TC_ALU},    {"IMMA", TC_TENSOR},   {"IMNMX", TC_ALU},
	{"IMUL", TC_ALU},       {"IMUL32I", TC_ALU},   {"INEG", TC_ALU},      {"IPA", TC_MISC},
	{"ISBERD", TC_MISC},    {"ISCADD", TC_ALU},    {"ISCADD32I", TC_ALU}, {"ISET", TC_ALU},
	{"ISETP", TC_ALU},      {"JCAL", TC_BRANCH},   {"JMP", TC_BRANCH},    {"JMX", TC_BRANCH},
	{"JMXU", TC_BRANCH},    {"KIL", TC_BRANCH},    {"KILL", TC_BRANCH},   {"LD", TC_LD},
	{"LDC", TC_MISC},       {"LDG", TC_LDG},       {"LDGDEPBAR", TC_MISC}, {"LDGSTS", TC_LDG},
	{"LDL", TC_LDL},        {"LDS", TC_LDS},       {"LDSM", TC_LDS},      {"LEA", TC_ALU},
	{"LEPC", TC_MISC},      {"LOP", TC_ALU},       {"LOP3", TC_ALU},      {"LOP32I", TC_ALU},
	{"MATCH", TC_ALU},      {"MEMBAR", TC_MISC},   {"MOV", TC_ALU},       {"MOV32I", TC_ALU},
	{"MOVM", TC_ALU},       {"MUFU", TC_SFU},      {"NANOSLEEP", TC_MISC}, {"NOP", TC_BRANCH},
	{"P2R", TC_ALU},        {"PBK", TC_BRANCH},    {"PCNT", TC_BRANCH},   {"PEXIT", TC_BRANCH},
	{"PLOP3", TC_ALU},      {"PMTRIG", TC_MISC},   {"POPC", TC_ALU},      {"PRET", TC_BRANCH},
	{"PRMT", TC_ALU},       {"PSET", TC_ALU},      {"PSETP", TC_ALU},     {"QGMMA", TC_TENSOR},
	{"R2B", TC_MISC},       {"R2P", TC_ALU},       {"R2UR", TC_MISC},     {"RED", TC_ATOM},
	{"REDG", TC_ATOMG},     {"REDUX", TC_ALU},     {"RET", TC_BRANCH},    {"RPCMOV", TC_BRANCH},
	{"RRO", TC_SFU},        {"RTT", TC_BRANCH},    {"S2R", TC_MISC},      {"S2UR", TC_MISC},
	{"SEL", TC_ALU},        {"SETCRSPTR", TC_MISC}, {"SETLMEMBASE", TC_MISC}, {"SGXT", TC_ALU},
	{"SHF", TC_ALU},        {"SHFL", TC_ALU},      {"SHL", TC_ALU},       {"SHR", TC_ALU},
	{"SSY", TC_BRANCH},     {"ST", TC_ST},         {"STG", TC_STG},       {"STL", TC_STL},
	{"STS", TC_STS},        {"SUATOM", TC_ATOMG},  {"SULD", TC_LDG},      {"SURED", TC_ATOMG},
	{"SUST", TC_STG},       {"SYNC", TC_BRANCH},   {"TEX", TC_LDG},       {"TEXS", TC_LDG},
	{"TLD", TC_LDG},        {"TLD4", TC_LDG},      {"TLD4S", TC_LDG},     {"TLDS", TC_LDG},
	{"TMML", TC_MISC},      {"TXD", TC_LDG},       {"TXQ", TC_MISC},      {"UBMSK", TC_ALU},
	{"UBREV", TC_ALU},      {"UCLEA", TC_ALU},     {"UFLO", TC_ALU},      {"UIADD3", TC_ALU},
	{"UIMAD", TC_ALU},      {"UISETP", TC_ALU},    {"ULDC", TC_MISC},     {"ULEA", TC_ALU},
	{"ULOP", TC_ALU},       {"ULOP3", TC_ALU},     {"ULOP32I", TC_ALU},   {"UMOV", TC_ALU},
	{"UP2UR", TC_ALU},      {"UPLOP3", TC_ALU},    {"UPOPC", TC_ALU},     {"UPRMT", TC_ALU},
	{"UPSETP", TC_ALU},     {"UR2UP", TC_ALU},     {"USEL", TC_ALU},      {"USGXT", TC_ALU},
	{"USHF", TC_ALU},       {"USHL", TC_ALU},      {"USHR", TC_ALU},      {"VABSDIFF", TC_ALU},
	{"VABSDIFF4", TC_ALU},  {"VOTE", TC_ALU},      {"VOTEU", TC_ALU},     {"WARPSYNC", TC_BRANCH},
	{"XMAD", TC_ALU},       {"YIELD", TC_BRANCH},
};

/* a[0, n) (not NUL-terminated, may hold any byte) against the string b. */
static int cmp_n(const char *a, size_t n, const char *b)
{
	size_t bn = strlen(b);
	int c = memcmp(a, b, n < bn ? n : bn);
	if (c)
		return c;
	return n < bn ? -1 : n > bn;
}

static long atoi_n(const char *s, size_t n)
{
	long v = 0;
	for (size_t i = 0; i < n; i++)
		v = v * 10 + (s[i] - '0');
	return v;
}

static bool all_digits(const char *s, size_t n)
{
	if (!n)
		return false;
	for (size_t i = 0; i < n; i++)
		if (s[i] < '0' || s[i] > '9')
			return false;
	return true;
}

/* fp32 and fp16 arithmetic: Accel-Sim's SP_OP in its Kepler to Ampere
 * tables (sorted). Every other arithmetic, move, conversion, predicate and
 * miscellaneous opcode is its ALU_OP or INTP_OP, timed as int. */
static const char *const sp_ops[] = {
	"FADD",  "FADD32I",   "FCHK",  "FCMP",      "FFMA",   "FFMA32I", "FMNMX", "FMUL",
	"FMUL32I", "FSEL",    "FSET",  "FSETP",     "FSWZ",   "FSWZADD", "HADD2", "HADD2_32I",
	"HFMA2", "HFMA2_32I", "HMNMX2", "HMUL2",    "HMUL2_32I", "HSET2", "HSETP2", "RRO",
};

unsigned trace_unit(const char *op, size_t len, unsigned cls)
{
	size_t base = 0;
	while (base < len && op[base] != '.')
		base++;
	size_t lo = 0, hi = ARRAY_LEN(sp_ops);
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int c = cmp_n(op, base, sp_ops[mid]);
		if (c == 0)
			return KU_SP;
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	switch (cls) {
	case TC_SFU:
		return KU_SFU;
	case TC_DP:
		return KU_DP;
	case TC_TENSOR:
		return KU_TENSOR;
	case TC_BRANCH:
	case TC_EXIT: /* an EXIT before the warp's last line */
		/* NOP is an ALU_OP in Accel-Sim's tables, not a control instruction */
		return cmp_n(op, base, "NOP") == 0 ? KU_INT : KU_BRANCH;
	default:
		return KU_INT;
	}
}

unsigned trace_classify(const char *op, size_t len, unsigned *size, unsigned *flags)
{
	size_t base = 0;
	while (base < len && op[base] != '.')
		base++;
	unsigned cls = TC_UNKNOWN;
	size_t lo = 0, hi = ARRAY_LEN(ops);
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int c = cmp_n(op, base, ops[mid].name);
		if (c == 0) {
			cls = ops[mid].cls;
			break;
		}
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	unsigned sz = 4, fl = 0;
	/* Modifier tokens: width, cache operators, BAR.ARV. */
	for (size_t i = base; i < len;) {
		size_t j = i + 1;
		while (j < len && op[j] != '.')
			j++;
		const char *t = op + i + 1;
		size_t tn = j - i - 1;
		unsigned bits = 0;
		if (all_digits(t, tn) && tn <= 3)
			bits = (unsigned)atoi_n(t, tn);
		else if (tn >= 2 && tn <= 4 && (t[0] == 'U' || t[0] == 'S') && all_digits(t + 1, tn - 1))
			bits = (unsigned)atoi_n(t + 1, tn - 1);
		if (bits == 8 || bits == 16 || bits == 32 || bits == 64 || bits == 128)
			sz = bits / 8;
		if (tn == 2 && t[0] == 'C' && t[1] == 'G')
			fl |= TF_CG;
		if (tn == 2 && t[0] == 'C' && t[1] == 'S')
			fl |= TF_CS;
		if (tn == 2 && t[0] == 'C' && t[1] == 'V')
			fl |= TF_CV;
		if (tn == 2 && t[0] == 'L' && t[1] == 'U')
			fl |= TF_LU;
		if (cls == TC_BAR && tn == 3 && memcmp(t, "ARV", 3) == 0)
			cls = TC_MISC;
		i = j;
	}
	if (size)
		*size = sz;
	if (flags)
		*flags = fl;
	return cls;
}
