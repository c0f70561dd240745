/* ASan's options (ASAN_OPTIONS, LSAN_OPTIONS, a program's
 * __asan_default_options): the keys that mean something here, mapped onto
 * the kernel-named options of options.c. */
#include <string.h>

#include "../base/compiler.h"
#include "../platform/os.h"
#include "log.h"
#include "option_words.h"
#include "options.h"

/* ASan's flags that mean something here, and what they set. A project's
 * ASan settings then keep working (Meson's tests run with
 * halt_on_error=1:abort_on_error=1); every other key is ignored silently, as
 * ASan itself ignores keys it does not know. */
enum asan_kind { A_BOOL, A_INT, A_PATH };
enum asan_id {
	A_HALT,
	A_ABORT,
	A_EXITCODE,
	A_LOG_PATH,
	A_LOG_EXE_NAME,
	A_SYMBOLIZE,
	A_DEDUP_TOKEN,
	A_UAR,
	A_QUARANTINE_MB,
	A_MALLOC_CONTEXT,
	A_SUMMARY,
	A_STRICT_STRINGS,
	A_POINTER_PAIRS,
	A_HELP,
	A_INIT_ORDER,
	A_STRICT_INIT,
	A_ODR,
	A_ALLOC_DEALLOC,
	A_NEW_DELETE,
	A_MAY_RETURN_NULL,
	A_MAX_ALLOC_MB,
	A_DETECT_LEAKS,
	A_SUPPRESSIONS,
	A_FILL_BYTE,
	A_FILL_SIZE,
	A_CONTAINER,
	A_NKEYS
};

struct asan_key {
	const char *name;
	enum asan_kind kind;
	long min, max; /* A_INT */
	const char *meaning;
};

static const struct asan_key asan_keys[A_NKEYS] = {
    [A_HALT] = {"halt_on_error", A_BOOL, 0, 0,
                "1: kasan.fault=panic kfence.fault=panic, ending with exit status "
                "ukasan.exitcode (ukasan.abort_on_error=off); 0: kasan_multi_shot"},
    [A_ABORT] = {"abort_on_error", A_BOOL, 0, 0,
                 "1: a panic ends with SIGABRT (ukasan.abort_on_error); alone, also "
                 "halt_on_error=1"},
    [A_EXITCODE] = {"exitcode", A_INT, 0, 255, "ukasan.exitcode"},
    [A_LOG_PATH] = {"log_path", A_PATH, 0, 0, "ukasan.log_path; stderr and stdout: stderr"},
    [A_LOG_EXE_NAME] = {"log_exe_name", A_BOOL, 0, 0,
                        "1: with log_path, reports go to PATH.EXE.PID, as ASan's"},
    [A_SYMBOLIZE] = {"symbolize", A_BOOL, 0, 0, "ukasan.symbolize"},
    [A_DEDUP_TOKEN] = {"dedup_token_length", A_INT, 0, 64, "ukasan.dedup_token_length"},
    [A_UAR] = {"detect_stack_use_after_return", A_BOOL, 0, 0, "kasan.stack_use_after_return"},
    [A_QUARANTINE_MB] = {"quarantine_size_mb", A_INT, -1, 1l << 20,
                         "kasan.quarantine_size in MiB; -1: its default"},
    [A_MALLOC_CONTEXT] = {"malloc_context_size", A_INT, 0, 255,
                          "0: kasan.stacktrace=off; more: on"},
    [A_SUMMARY] = {"print_summary", A_BOOL, 0, 0, "ukasan.print_summary"},
    [A_STRICT_STRINGS] = {"strict_string_checks", A_BOOL, 0, 0, "kasan.strict_string_checks"},
    [A_POINTER_PAIRS] = {"detect_invalid_pointer_pairs", A_INT, 0, 1l << 30,
                         "kasan.detect_invalid_pointer_pairs"},
    [A_HELP] = {"help", A_BOOL, 0, 0, "1: this list"},
    [A_INIT_ORDER] = {"check_initialization_order", A_BOOL, 0, 0,
                      "kasan.check_initialization_order"},
    [A_STRICT_INIT] = {"strict_init_order", A_BOOL, 0, 0, "kasan.strict_init_order"},
    [A_ODR] = {"detect_odr_violation", A_INT, 0, 2, "kasan.detect_odr_violation"},
    [A_ALLOC_DEALLOC] = {"alloc_dealloc_mismatch", A_BOOL, 0, 0, "ukasan.alloc_dealloc_mismatch"},
    [A_NEW_DELETE] = {"new_delete_type_mismatch", A_BOOL, 0, 0, "ukasan.new_delete_type_mismatch"},
    [A_MAY_RETURN_NULL] = {"allocator_may_return_null", A_BOOL, 0, 0,
                           "ukasan.allocator_may_return_null"},
    [A_MAX_ALLOC_MB] = {"max_allocation_size_mb", A_INT, 0, 1l << 20,
                        "ukasan.max_allocation_size_mb"},
    [A_DETECT_LEAKS] = {"detect_leaks", A_BOOL, 0, 0, "kmemleak (also in LSAN_OPTIONS)"},
    [A_SUPPRESSIONS] = {"suppressions", A_PATH, 0, 0, "in LSAN_OPTIONS: kmemleak.suppressions"},
    [A_FILL_BYTE] = {"malloc_fill_byte", A_INT, 0, 255, "ukasan.malloc_fill_byte"},
    [A_FILL_SIZE] = {"max_malloc_fill_size", A_INT, 0, 0x7fffffff, "ukasan.max_malloc_fill_size"},
    [A_CONTAINER] = {"detect_container_overflow", A_BOOL, 0, 0, "kasan.detect_container_overflow"},
};

void asan_options_help(void)
{
	log_printf("ukasan: ASAN_OPTIONS keys read before UKASAN_OPTIONS, which wins; "
	           "other keys are ignored:\n");
	for (size_t i = 0; i < A_NKEYS; i++)
		log_printf("  %-34s %s\n", asan_keys[i].name, asan_keys[i].meaning);
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

/* What ASAN_OPTIONS said of the keys that act only together, after all of
 * it is read: -1 when absent. */
struct asan_seen {
	int halt, abort, exe_name;
};

static void asan_bad(const struct asan_key *k, const char *v, size_t len)
{
	char val[64], expect[64];
	option_copy_word(val, sizeof(val), v, len);
	if (k->kind == A_BOOL)
		fmt_buf(expect, sizeof(expect), "0 or 1");
	else if (k->kind == A_INT)
		fmt_buf(expect, sizeof(expect), "a whole number from %ld to %ld", k->min, k->max);
	else
		fmt_buf(expect, sizeof(expect), "a path shorter than %zu bytes",
		        sizeof(opt.log_path));
	log_printf("ukasan: invalid value '%s' for %s in ASAN_OPTIONS (expected %s); ignored\n",
	           val, k->name, expect);
}

static void asan_apply(const char *name, size_t nlen, const char *v, size_t vlen,
                       struct asan_seen *seen)
{
	const struct asan_key *k = NULL;
	unsigned long b = 0;
	long n = 0;
	for (size_t i = 0; i < A_NKEYS; i++)
		if (option_word_is(name, nlen, asan_keys[i].name))
			k = &asan_keys[i];
	if (!k)
		return;
	if ((k->kind == A_BOOL && option_parse_bool(v, vlen, &b)) ||
	    (k->kind == A_INT && parse_long(v, vlen, k->min, k->max, &n)) ||
	    (k->kind == A_PATH && (!vlen || vlen >= sizeof(opt.log_path)))) {
		asan_bad(k, v, vlen);
		return;
	}
	switch ((enum asan_id)(k - asan_keys)) {
	case A_HALT:
		seen->halt = (int)b;
		break;
	case A_ABORT:
		seen->abort = (int)b;
		break;
	case A_EXITCODE:
		opt.exitcode = (unsigned long)n;
		break;
	case A_LOG_PATH:
		/* ASan's names for its standard streams; reports have only
		 * stderr. */
		if (option_word_is(v, vlen, "stderr") || option_word_is(v, vlen, "stdout")) {
			opt.log_path[0] = 0;
			opt.asan_log_lines = 0;
			break;
		}
		rt_memcpy(opt.log_path, v, vlen);
		opt.log_path[vlen] = 0;
		opt.asan_log_lines = 1;
		break;
	case A_LOG_EXE_NAME:
		seen->exe_name = (int)b;
		break;
	case A_SYMBOLIZE:
		opt.symbolize = b;
		break;
	case A_DEDUP_TOKEN:
		opt.dedup_token_length = (unsigned long)n;
		break;
	case A_UAR:
		opt.kasan_stack_use_after_return = b;
		break;
	case A_QUARANTINE_MB:
		if (n >= 0)
			opt.kasan_quarantine_size = (unsigned long)n << 20;
		break;
	case A_MALLOC_CONTEXT:
		opt.kasan_stacktrace = n > 0;
		break;
	case A_SUMMARY:
		opt.print_summary = b;
		break;
	case A_STRICT_STRINGS:
		opt.strict_string_checks = b;
		break;
	case A_POINTER_PAIRS:
		opt.invalid_pointer_pairs = (unsigned long)n;
		break;
	case A_HELP:
		if (b)
			options_print_help();
		break;
	case A_INIT_ORDER:
		opt.kasan_init_order = b;
		break;
	case A_STRICT_INIT:
		opt.kasan_strict_init_order = b;
		break;
	case A_ODR:
		opt.kasan_odr = (unsigned long)n;
		break;
	case A_ALLOC_DEALLOC:
		opt.alloc_dealloc_mismatch = b;
		break;
	case A_NEW_DELETE:
		opt.new_delete_type_mismatch = b;
		break;
	case A_MAY_RETURN_NULL:
		opt.allocator_may_return_null = b;
		break;
	case A_MAX_ALLOC_MB:
		opt.max_allocation_size_mb = (unsigned long)n;
		break;
	case A_DETECT_LEAKS:
		opt.kmemleak = b;
		break;
	case A_SUPPRESSIONS:
		rt_memcpy(opt.kmemleak_suppressions, v, vlen);
		opt.kmemleak_suppressions[vlen] = 0;
		break;
	case A_FILL_BYTE:
		opt.malloc_fill_byte = (unsigned long)n;
		break;
	case A_FILL_SIZE:
		opt.max_malloc_fill_size = (unsigned long)n;
		break;
	case A_CONTAINER:
		opt.container_overflow = b;
		break;
	case A_NKEYS:
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

/* ASan's separators and quoting, so a value such as a path with ':' in it
 * can be given as ASan users give it, log_path='a:b'. */
static int asan_space(char c)
{
	return c == ' ' || c == ',' || c == ':' || c == '\n' || c == '\t' || c == '\r';
}

void asan_options_parse(const char *p)
{
	struct asan_seen seen = {-1, -1, -1};
	while (*p) {
		while (*p && asan_space(*p))
			p++;
		const char *name = p;
		while (*p && *p != '=' && !asan_space(*p))
			p++;
		if (p == name)
			break;
		size_t nlen = (size_t)(p - name);
		const char *v = p, *end;
		if (*p == '=') {
			v = ++p;
			char quote = *p == '\'' || *p == '"' ? *p : 0;
			if (quote) {
				v = ++p;
				while (*p && *p != quote)
					p++;
				end = p;
				if (!*p) {
					/* ASan stops there; the rest is no value. */
					char n[64];
					option_copy_word(n, sizeof(n), name, nlen);
					log_printf("ukasan: unterminated quote in ASAN_OPTIONS after "
					           "%s=; ignored\n",
					           n);
					continue;
				}
				p++;
			} else {
				while (*p && !asan_space(*p))
					p++;
				end = p;
			}
		} else {
			end = v;
		}
		asan_apply(name, nlen, v, (size_t)(end - v), &seen);
	}
	/* ASan stops at the first error unless built to recover and told
	 * halt_on_error=0; abort_on_error says how it dies: SIGABRT, or by
	 * default on Linux an exit with its exitcode. */
	if (seen.halt == 1 || (seen.halt == -1 && seen.abort == 1)) {
		opt.kasan_fault = FAULT_PANIC;
		opt.kfence_fault = FAULT_PANIC;
		opt.abort_on_error = seen.abort == 1;
	} else if (seen.halt == 0) {
		/* An ASan that recovers reports every error it meets. */
		opt.kasan_multi_shot = 1;
	}
	if (seen.exe_name == 1 && opt.log_path[0])
		append_exe_name();
}
