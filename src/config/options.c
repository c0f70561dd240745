#include "options.h"

#include <string.h>

#include "../base/compiler.h"

#include "../platform/os.h"

#include "log.h"
#include "option_words.h"

struct options opt;

enum kind { K_UINT, K_BOOL, K_ENUM, K_SIZE, K_PATH };

struct option_desc {
	const char *name;
	enum kind kind;
	size_t offset;
	unsigned long def;
	unsigned long max;
	const char *const *choices; /* K_ENUM: value index is the stored number */
	unsigned long min;          /* K_UINT */
	const char *meaning;        /* help=1's line */
};

static const char *const fault_choices[] = {"report", "panic", "panic_on_write", NULL};
static const char *const kfence_fault_choices[] = {"report", "panic", NULL};
static const char *const mode_choices[] = {"sync", "async", "asymm", NULL};
static const char *const symbolizer_choices[] = {"auto", "internal", "external", NULL};
static const char *const format_choices[] = {"text", "json", "both", NULL};
static const char *const sink_choices[] = {"auto", "stderr", "file", "syslog", "journald", NULL};
static const char *const asan_lines_choices[] = {"auto", "on", "off", NULL};

#define OFF(f) offsetof(struct options, f)
static const struct option_desc table[] = {
    {"kfence.sample_interval", K_UINT, OFF(kfence_sample_interval), 100, 86400000, NULL, 0,
     "ms between guarded allocations; 0 disables KFENCE"},
    {"kfence.sample_rate", K_UINT, OFF(kfence_sample_rate), 0, 1ul << 30, NULL, 0,
     "guard one allocation in N instead of by time; 0: off"},
    {"kfence.num_objects", K_UINT, OFF(kfence_num_objects), 255, 16383, NULL, 0,
     "pool slots (each two pages of address space)"},
    {"kfence.skip_covered_thresh", K_UINT, OFF(kfence_skip_covered_thresh), 75, 100, NULL, 0,
     "pool % full from which stacks with a live guarded object are skipped"},
    {"kfence.burst", K_UINT, OFF(kfence_burst), 0, 1000, NULL, 0,
     "guard N more allocations of the same thread after each sampled one"},
    {"kfence.process_sample", K_UINT, OFF(kfence_process_sample), 1, 1ul << 30, NULL, 1,
     "KFENCE on in a random one of N processes, decided at start (exec); fork's child keeps "
     "its parent's decision"},
    {"kfence.fault", K_ENUM, OFF(kfence_fault), FAULT_REPORT, 0, kfence_fault_choices, 0,
     "report, or panic (report, then abort)"},
    {"kfence.stats", K_BOOL, OFF(kfence_stats), 0, 1, NULL, 0, "print KFENCE's counters at exit"},
    {"kasan.fault", K_ENUM, OFF(kasan_fault), FAULT_REPORT, 0, fault_choices, 0,
     "report, panic (abort after the report), or panic_on_write"},
    {"kasan_multi_shot", K_BOOL, OFF(kasan_multi_shot), 0, 1, NULL, 0,
     "print every report, not only the first"},
    {"kasan.stacktrace", K_BOOL, OFF(kasan_stacktrace), 1, 1, NULL, 0,
     "record allocation and free stacks"},
    {"kasan.stack_use_after_return", K_BOOL, OFF(kasan_stack_use_after_return), 0, 1, NULL, 0,
     "frames on fake stacks, poisoned when they return"},
    {"kasan.page_alloc.sample", K_UINT, OFF(kasan_page_alloc_sample), 1, 1ul << 30, NULL, 1,
     "check one large allocation in N, of the sampled order and up"},
    {"kasan.page_alloc.sample.order", K_UINT, OFF(kasan_page_alloc_sample_order), 3, 30, NULL, 0,
     "the page order from which large allocations are sampled"},
    {"kasan", K_BOOL, OFF(kasan_on), 0, 1, NULL, 0, "hardware tags (arm64 MTE) in the preload"},
    {"ukasan.generic", K_BOOL, OFF(generic), 0, 1, NULL, 0,
     "generic KASAN from the first allocation, for instrumented libraries in any program"},
    {"kasan.mode", K_ENUM, OFF(kasan_hw_mode), KASAN_MODE_SYNC, 0, mode_choices, 0,
     "hardware tags' checks: sync, async or asymm"},
    {"kasan.stack_ring_size", K_UINT, OFF(kasan_stack_ring_size), 32768, 1ul << 24, NULL, 1,
     "allocations and frees remembered for tag reports"},
    {"kasan.stats", K_BOOL, OFF(kasan_stats), 0, 1, NULL, 0,
     "print the heap's and the shadow's memory at exit"},
    {"kasan.check_initialization_order", K_BOOL, OFF(kasan_init_order), 0, 1, NULL, 0,
     "globals of other files not yet initialised are poisoned while a file's initialise"},
    {"kasan.strict_init_order", K_BOOL, OFF(kasan_strict_init_order), 0, 1, NULL, 0,
     "an initialiser may not read another file's globals even once set up (turns the above on)"},
    {"kasan.detect_odr_violation", K_UINT, OFF(kasan_odr), 2, 2, NULL, 0,
     "two definitions of one global: 0 ignored, 1 reported if sizes differ, 2 always"},
    {"kasan.quarantine_size", K_SIZE, OFF(kasan_quarantine_size), 256ul << 20, 1ul << 40, NULL, 0,
     "bytes of freed memory held back (K, M, G suffixes)"},
    {"ukasan.symbolize", K_BOOL, OFF(symbolize), 1, 1, NULL, 0, "file:line in frames"},
    {"ukasan.symbolizer", K_ENUM, OFF(symbolizer), SYMBOLIZER_AUTO, 0, symbolizer_choices, 0,
     "file:line and C++ names in-process (internal: DWARF line tables, our demangler), by "
     "llvm-symbolizer and c++filt (external), or the first, else the second (auto)"},
    {"ukasan.dedup_token_length", K_UINT, OFF(dedup_token_length), 3, 64, NULL, 0,
     "a DEDUP_TOKEN line after each report: its bug type and N function names (0: none)"},
    {"ukasan.asan_lines", K_ENUM, OFF(asan_lines), ASAN_LINES_AUTO, 0, asan_lines_choices, 0,
     "AddressSanitizer's, LeakSanitizer's and UBSan's lines and DEDUP_TOKEN in reports, for "
     "the tools that read those; auto: when ASAN_OPTIONS, LSAN_OPTIONS or (UBSan's) "
     "UBSAN_OPTIONS is set, or in a fuzz target"},
    {"ukasan.log_path", K_PATH, OFF(log_path), 0, 0, NULL, 0,
     "write reports to PATH.PID instead of stderr"},
    {"ukasan.report_format", K_ENUM, OFF(report_format), REPORT_FORMAT_TEXT, 0, format_choices, 0,
     "reports as the kernel's text, one JSON line each (json), or both"},
    {"ukasan.json_path", K_PATH, OFF(json_path), 0, 0, NULL, 0,
     "write the JSON lines to PATH.PID instead of the reports' log"},
    {"ukasan.log_sink", K_ENUM, OFF(log_sink), SINK_AUTO, 0, sink_choices, 0,
     "where reports go: stderr, file (ukasan.log_path), syslog (RFC 5424 to /dev/log), journald "
     "(its native protocol); auto: the file if log_path is set, else stderr"},
    {"ukasan.syslog_path", K_PATH, OFF(syslog_path), 0, 0, NULL, 0,
     "the datagram socket of ukasan.log_sink=syslog"},
    {"ukasan.journal_path", K_PATH, OFF(journal_path), 0, 0, NULL, 0,
     "the datagram socket of ukasan.log_sink=journald"},
    {"ukasan.exitcode", K_UINT, OFF(exitcode), EXITCODE_AUTO, 255, NULL, 0,
     "exit status of a run that printed a report, when it would have been 0 (0: keep it; "
     "auto: 1 with KASAN on, else 0)"},
    {"ukasan.abort_on_error", K_BOOL, OFF(abort_on_error), 1, 1, NULL, 0,
     "how a panic ends: abort (SIGABRT), or off: exit with ukasan.exitcode"},
    {"kmemleak", K_BOOL, OFF(kmemleak), 1, 1, NULL, 0,
     "generic mode: report unreferenced heap objects at exit (and on demand)"},
    {"kmemleak.suppressions", K_PATH, OFF(kmemleak_suppressions), 0, 0, NULL, 0,
     "a file of LSan's leak:PATTERN lines; leaks whose stack matches are not reported"},
    {"ukasan.print_summary", K_BOOL, OFF(print_summary), 1, 1, NULL, 0,
     "at exit, one line counting the reports of a run that had any"},
    {"kasan.strict_string_checks", K_BOOL, OFF(strict_string_checks), 0, 1, NULL, 0,
     "string arguments checked to their terminator, not only as far as the call read"},
    {"kasan.detect_invalid_pointer_pairs", K_UINT, OFF(invalid_pointer_pairs), 0, 1ul << 30, NULL,
     0,
     "pointers into different objects compared or subtracted (-fsanitize=pointer-compare, "
     "pointer-subtract): 0 off, 1 on, 2 also a null pointer"},
    {"ukasan.alloc_dealloc_mismatch", K_BOOL, OFF(alloc_dealloc_mismatch), 1, 1, NULL, 0,
     "report free of new's objects, delete of malloc's, delete of new[]'s..."},
    {"ukasan.new_delete_type_mismatch", K_BOOL, OFF(new_delete_type_mismatch), 1, 1, NULL, 0,
     "report a sized or aligned delete whose size or alignment is not the object's"},
    {"ukasan.allocator_may_return_null", K_BOOL, OFF(allocator_may_return_null), 0, 1, NULL, 0,
     "impossible requests (calloc overflow, too big, bad alignment) fail without a report"},
    {"ukasan.max_allocation_size_mb", K_UINT, OFF(max_allocation_size_mb), 0, 1ul << 20, NULL, 0,
     "larger requests are refused (and reported); 0: 1 TiB, ASan's limit"},
    {"ukasan.malloc_fill_byte", K_UINT, OFF(malloc_fill_byte), 0xbe, 255, NULL, 0,
     "generic mode: the byte new objects (not calloc's) start filled with, as ASan's"},
    {"ukasan.max_malloc_fill_size", K_SIZE, OFF(max_malloc_fill_size), 0x1000, 1ul << 40, NULL, 0,
     "generic mode: how many of a new object's first bytes are filled; 0: none"},
};
#define NOPTS (sizeof(table) / sizeof(table[0]))

static unsigned long *slot(const struct option_desc *d)
{
	return (unsigned long *)((char *)&opt + d->offset);
}

int option_word_is(const char *w, size_t len, const char *s)
{
	return strlen(s) == len && !memcmp(w, s, len);
}

/* Words are not terminated: a copy, cut short if need be, to print. */
void option_copy_word(char *dst, size_t cap, const char *w, size_t len)
{
	size_t n = len < cap - 1 ? len : cap - 1;
	rt_memcpy(dst, w, n);
	dst[n] = 0;
}

int option_parse_uint(const char *v, size_t len, unsigned long max, int size_suffix,
                      unsigned long *out)
{
	unsigned long n = 0;
	size_t i = 0;
	if (!len)
		return -1;
	for (; i < len && v[i] >= '0' && v[i] <= '9'; i++) {
		if (n > (~0ul - 9) / 10)
			return -1;
		n = n * 10 + (unsigned long)(v[i] - '0');
	}
	if (i == 0)
		return -1;
	if (size_suffix && i + 1 == len) {
		int shift = v[i] == 'K' || v[i] == 'k'   ? 10
		            : v[i] == 'M' || v[i] == 'm' ? 20
		            : v[i] == 'G' || v[i] == 'g' ? 30
		                                         : -1;
		if (shift < 0 || n > (max >> shift))
			return -1;
		n <<= shift;
		i++;
	}
	if (i != len || n > max)
		return -1;
	*out = n;
	return 0;
}

int option_parse_bool(const char *v, size_t len, unsigned long *out)
{
	static const char *const yes[] = {"1", "on", "true", "yes", "y"};
	static const char *const no[] = {"0", "off", "false", "no", "n"};
	for (size_t i = 0; i < 5; i++) {
		if (option_word_is(v, len, yes[i])) {
			*out = 1;
			return 0;
		}
		if (option_word_is(v, len, no[i])) {
			*out = 0;
			return 0;
		}
	}
	return -1;
}

static void describe_default(const struct option_desc *d, char *buf, size_t cap, int human)
{
	static const char suffix[] = "KMG";
	if (human && d->kind == K_PATH) {
		fmt_buf(buf, cap,
		        d->offset == OFF(log_path)    ? "stderr"
		        : d->offset == OFF(json_path) ? "the log"
		                                      : "none");
		return;
	}
	if (human && d->kind == K_SIZE && d->def)
		for (int s = 3; s > 0; s--)
			if (!(d->def & ((1ul << (10 * s)) - 1))) {
				fmt_buf(buf, cap, "%lu%c", d->def >> (10 * s), suffix[s - 1]);
				return;
			}
	if (d->kind == K_UINT && d->def > d->max) /* decided at start */
		fmt_buf(buf, cap, "auto");
	else if (d->kind == K_ENUM)
		fmt_buf(buf, cap, "%s", d->choices[d->def]);
	else if (d->kind == K_BOOL)
		fmt_buf(buf, cap, "%s", d->def ? "on" : "off");
	else
		fmt_buf(buf, cap, "%lu", d->def);
}

static void bad_value(const struct option_desc *d, const char *v, size_t len)
{
	char val[64], def[32], expect[128];
	option_copy_word(val, sizeof(val), v, len);
	describe_default(d, def, sizeof(def), 0);
	switch (d->kind) {
	case K_ENUM: {
		size_t k = fmt_buf(expect, sizeof(expect), "one of");
		for (const char *const *c = d->choices; *c; c++)
			k += fmt_buf(expect + k, sizeof(expect) - k, " %s", *c);
		break;
	}
	case K_BOOL:
		fmt_buf(expect, sizeof(expect), "on or off");
		break;
	case K_SIZE:
		fmt_buf(expect, sizeof(expect),
		        "a size in bytes, with K, M or G allowed, up to %lu", d->max);
		break;
	default:
		fmt_buf(expect, sizeof(expect), "a whole number from %lu to %lu", d->min, d->max);
	}
	log_printf("ukasan: invalid value '%s' for %s (expected %s); using the default %s\n", val,
	           d->name, expect, def);
}

/* Printed through the log, before any report could be, so at start it goes
 * to stderr even when reports go to a file. */
void options_print_help(void)
{
	static int printed;
	char def[32], word[64];
	if (printed)
		return;
	printed = 1;
	log_printf("ukasan: options, as NAME=VALUE separated by spaces in UKASAN_OPTIONS, "
	           "with their defaults:\n");
	for (size_t i = 0; i < NOPTS; i++) {
		describe_default(&table[i], def, sizeof(def), 1);
		fmt_buf(word, sizeof(word), "%s=%s", table[i].name, def);
		log_printf("  %-34s %s\n", word, table[i].meaning);
	}
	asan_options_help();
}

static void bad_help(const char *v, size_t len)
{
	char val[64];
	option_copy_word(val, sizeof(val), v, len);
	log_printf("ukasan: invalid value '%s' for help (expected on or off); ignored\n", val);
}

static void apply(const char *name, size_t nlen, const char *v, size_t vlen, int has_value)
{
	const struct option_desc *d = NULL;
	unsigned long val = 0;
	if (option_word_is(name, nlen, "help")) {
		if (has_value && option_parse_bool(v, vlen, &val))
			bad_help(v, vlen);
		else if (!has_value || val)
			options_print_help();
		return;
	}
	for (size_t i = 0; i < NOPTS; i++)
		if (option_word_is(name, nlen, table[i].name))
			d = &table[i];
	if (!d) {
		char n[64];
		option_copy_word(n, sizeof(n), name, nlen);
		log_printf("ukasan: unknown option %s; ignored\n", n);
		return;
	}
	if (!has_value && d->kind == K_BOOL) { /* a bare flag, as kasan_multi_shot */
		*slot(d) = 1;
		return;
	}
	int bad = 0;
	switch (d->kind) {
	case K_UINT:
	case K_SIZE:
		bad = option_parse_uint(v, vlen, d->max, d->kind == K_SIZE, &val) || val < d->min;
		break;
	case K_BOOL:
		bad = option_parse_bool(v, vlen, &val);
		break;
	case K_ENUM:
		bad = -1;
		for (unsigned long i = 0; d->choices[i]; i++)
			if (option_word_is(v, vlen, d->choices[i])) {
				val = i;
				bad = 0;
			}
		break;
	case K_PATH: {
		/* Every path option is a 256-byte array, as log_path. */
		char *dst = (char *)&opt + d->offset;
		if (!vlen || vlen >= sizeof(opt.log_path)) {
			log_printf("ukasan: invalid value for %s (expected a path shorter than %zu "
			           "bytes); %s\n",
			           d->name, sizeof(opt.log_path),
			           dst == opt.log_path ? "reports go to stderr" : "ignored");
			return;
		}
		rt_memcpy(dst, v, vlen);
		dst[vlen] = 0;
		return;
	}
	}
	if (bad)
		bad_value(d, v, vlen);
	else
		*slot(d) = val;
}

static int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n';
}

/* NAME=VALUE words separated by white space; a value may be quoted, as
 * in ASAN_OPTIONS, to hold white space (log_path='a b'). A quote left
 * open takes the rest of the text, as ASan's does: warned, and ignored. */
void options_parse(const char *text)
{
	const char *p = text;
	while (p && *p) {
		while (*p && is_space(*p))
			p++;
		const char *w = p;
		while (*p && !is_space(*p) && *p != '=')
			p++;
		if (p == w && *p != '=')
			break;
		if (*p != '=') {
			apply(w, (size_t)(p - w), p, 0, 0);
			continue;
		}
		const char *eq = p++, *v = p, *end;
		char quote = *p == '\'' || *p == '"' ? *p : 0;
		if (quote) {
			v = ++p;
			while (*p && *p != quote)
				p++;
			if (!*p) {
				char n[64];
				option_copy_word(n, sizeof(n), w, (size_t)(eq - w));
				log_printf("ukasan: unterminated quote in UKASAN_OPTIONS after %s=; "
				           "ignored\n",
				           n);
				return;
			}
			end = p++;
		} else {
			while (*p && !is_space(*p))
				p++;
			end = p;
		}
		apply(w, (size_t)(eq - w), v, (size_t)(end - v), 1);
	}
}

/* Not in a set-user-ID or set-group-ID program: its environment is the
 * caller's. */
static void read_env(const char *name, void (*parse)(const char *text))
{
	const char *env = os_getenv(name);
	if (env && os_secure_exec())
		log_printf("ukasan: %s ignored in a set-user-ID or set-group-ID program\n", name);
	else if (env)
		parse(env);
}

/* A program's own ASan defaults, compiled in (ASan reads them before
 * ASAN_OPTIONS). */
extern const char *__asan_default_options(void) __attribute__((weak));
/* libFuzzer's entry point, which AFL++'s and honggfuzz's drivers call too:
 * exported by the program because this library refers to it. */
extern int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size) __attribute__((weak));
/* The C half of Go's runtime/cgo, in every Go program with C in it: also
 * exported because this library refers to it. */
extern void x_cgo_init(void) __attribute__((weak));

/* ASAN_OPTIONS's keys act as defaults: UKASAN_OPTIONS, read after them,
 * overrides them. */
void options_read(void)
{
	for (size_t i = 0; i < NOPTS; i++)
		if (table[i].kind != K_PATH)
			*slot(&table[i]) = table[i].def;
	opt.log_path[0] = 0;
	opt.json_path[0] = 0;
	opt.syslog_path[0] = 0;
	opt.journal_path[0] = 0;
	opt.asan_log_lines = 0;
	opt.kmemleak_suppressions[0] = 0;
	/* A fuzz target: a report ends the run, as under ASan, whose fuzzing
	 * builds halt on error; one that returned would let the fuzzer take
	 * the input for a clean one and save nothing. The instrumented
	 * accesses of a build without recovery end it anyway, but reports of
	 * the runtime's own (a double free, an interceptor's check, KFENCE)
	 * return unless panic is set. halt_on_error=0 or kasan.fault=report
	 * undo it. */
	if (LLVMFuzzerTestOneInput) {
		opt.kasan_fault = FAULT_PANIC;
		opt.kfence_fault = FAULT_PANIC;
	}
	/* A Go program leaves by the exit_group system call, never through
	 * libc's exit, where a run with reports gets its status: it would end
	 * with 0. A report ends it then, as ASan's do under Go (go build
	 * -asan), by exit with ukasan.exitcode: Go's SIGABRT handler would
	 * print every goroutine's stack over the report. */
	if (x_cgo_init) {
		opt.kasan_fault = FAULT_PANIC;
		opt.kfence_fault = FAULT_PANIC;
		opt.abort_on_error = 0;
	}
	const char *builtin = __asan_default_options ? __asan_default_options() : NULL;
	if (builtin)
		asan_options_parse(builtin);
	read_env("ASAN_OPTIONS", asan_options_parse);
	/* LSan's leak options, as ASan reads them. */
	read_env("LSAN_OPTIONS", asan_options_parse);
	read_env("UKASAN_OPTIONS", options_parse);
}
