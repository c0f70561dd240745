/* ASan's options (ASAN_OPTIONS, LSAN_OPTIONS, a program's
 * __asan_default_options): the keys that mean something here, mapped onto
 * the kernel-named options of options.inc. */
#include <string.h>

#include "../base/compiler.h"
#include "../platform/os.h"
#include "log.h"
#include "option_table.h"
#include "options.h"

/* ASan's flags that mean something here: the ASAN column of options.inc
 * (a key that sets one option as it is), and its ASAN_KEY rows, which act
 * otherwise. A project's ASan settings then keep working (Meson's tests run
 * with halt_on_error=1:abort_on_error=1); every other key is ignored
 * silently, as ASan itself ignores keys it does not know. */
enum asan_type { ASAN_BOOL, ASAN_INT };
enum asan_id {
#define ASAN_KEY(id, name, type, min, max, sets, help) ASAN_##id,
#include "options.inc"
	ASAN_NKEYS
};

struct asan_key {
	const char *name;
	enum asan_type type;
	long min, max; /* ASAN_INT */
	const char *help;
};

static const struct asan_key asan_keys[ASAN_NKEYS] = {
#define ASAN_KEY(id, name, type, min, max, sets, help)                                             \
	[ASAN_##id] = {name, ASAN_##type, min, max, help},
#include "options.inc"
};

void asan_options_help(void)
{
	log_printf("ukasan: ASAN_OPTIONS keys read before UKASAN_OPTIONS, which wins; "
	           "other keys are ignored:\n");
	for (size_t i = 0; i < ASAN_NKEYS; i++)
		log_printf("  %-34s %s\n", asan_keys[i].name, asan_keys[i].help);
	for (size_t i = 0; i < option_count; i++)
		if (option_table[i].asan[0])
			log_printf("  %-34s %s\n", option_table[i].asan, option_table[i].name);
}

static int parse_long(const char *v, size_t len, long min, long max, long *out)
{
	unsigned long n;
	int neg = len && v[0] == '-';
	if (option_parse_uint(v + neg, len - (size_t)neg, 1ul << 62, 0, &n))
		return -1;
	long x = neg ? -(long)n : (long)n;
	if (x < min || x > max)
		return -1;
	*out = x;
	return 0;
}

/* One source's reading (ASAN_OPTIONS, LSAN_OPTIONS...): its name for the
 * warnings, and what it said of the keys that act only together, after all
 * of it is read (-1 when absent). */
struct asan_read {
	const char *from;
	int halt, abort, exe_name;
};

static void asan_bad(const struct asan_read *r, const char *key, const char *v, size_t len,
                     const char *expect)
{
	char val[64];
	option_copy_word(val, sizeof(val), v, len);
	log_printf("ukasan: invalid value '%s' for %s in %s (expected %s); ignored\n", val, key,
	           r->from, expect);
}

/* A key of the ASAN column: the option's own value, in ASan's syntax. */
static void asan_set_option(const struct option_desc *d, const char *v, size_t len,
                            struct asan_read *r)
{
	char expect[128];
	int log = d->offset == offsetof(struct options, log_path);
	/* ASan's names for its standard streams; reports have only stderr. */
	if (log && (option_word_is(v, len, "stderr") || option_word_is(v, len, "stdout"))) {
		opt.log_path[0] = 0;
		opt.asan_log_lines = 0;
		return;
	}
	if (option_set(d, v, len, 1)) {
		option_expected(d, 1, expect, sizeof(expect));
		asan_bad(r, d->asan, v, len, expect);
		return;
	}
	if (log)
		opt.asan_log_lines = 1;
}

static void asan_apply(const char *name, size_t nlen, const char *v, size_t vlen, int has_value,
                       void *ctx)
{
	struct asan_read *r = ctx;
	const struct asan_key *k = NULL;
	const struct option_desc *d = option_of_asan_key(name, nlen);
	char expect[64];
	unsigned long b = 0;
	long n = 0;
	(void)has_value; /* a bare key has the empty value, which no key takes */
	if (d) {
		asan_set_option(d, v, vlen, r);
		return;
	}
	for (size_t i = 0; i < ASAN_NKEYS; i++)
		if (option_word_is(name, nlen, asan_keys[i].name))
			k = &asan_keys[i];
	if (!k)
		return;
	if (k->type == ASAN_BOOL ? option_parse_bool(v, vlen, &b)
	                         : parse_long(v, vlen, k->min, k->max, &n)) {
		if (k->type == ASAN_BOOL)
			fmt_buf(expect, sizeof(expect), "0 or 1");
		else
			fmt_buf(expect, sizeof(expect), "a whole number from %ld to %ld", k->min,
			        k->max);
		asan_bad(r, k->name, v, vlen, expect);
		return;
	}
	switch ((enum asan_id)(k - asan_keys)) {
	case ASAN_HALT:
		r->halt = (int)b;
		break;
	case ASAN_ABORT:
		r->abort = (int)b;
		break;
	case ASAN_LOG_EXE_NAME:
		r->exe_name = (int)b;
		break;
	case ASAN_QUARANTINE_MB:
		if (n >= 0)
			opt.kasan_quarantine_size = (unsigned long)n << 20;
		break;
	case ASAN_MALLOC_CONTEXT:
		opt.kasan_stacktrace = n > 0;
		break;
	case ASAN_NKEYS:
		break;
	}
}

/* ASan's log_exe_name: PATH.EXE, to which the log appends .PID. Left as
 * PATH when the name would not fit, rather than cut. */
static void append_exe_name(void)
{
	char exe[4096];
	if (os_self_exe(exe, sizeof(exe)) != 0)
		return;
	const char *base = strrchr(exe, '/');
	base = base ? base + 1 : exe;
	size_t have = strlen(opt.log_path), add = strlen(base);
	if (*base && have + 1 + add < sizeof(opt.log_path)) {
		opt.log_path[have] = '.';
		rt_memcpy(opt.log_path + have + 1, base, add + 1);
	}
}

void asan_options_parse(const char *text, const char *from)
{
	struct asan_read r = {from, -1, -1, -1};
	options_split(text, from, asan_apply, &r);
	/* ASan stops at the first error unless built to recover and told
	 * halt_on_error=0; abort_on_error says how it dies: SIGABRT, or by
	 * default on Linux an exit with its exitcode. */
	if (r.halt == 1 || (r.halt == -1 && r.abort == 1)) {
		opt.kasan_fault = FAULT_PANIC;
		opt.kfence_fault = KFENCE_FAULT_PANIC;
		opt.abort_on_error = r.abort == 1;
	} else if (r.halt == 0) {
		/* An ASan that recovers reports every error it meets. */
		opt.kasan_multi_shot = 1;
	}
	if (r.exe_name == 1 && opt.log_path[0])
		append_exe_name();
}
