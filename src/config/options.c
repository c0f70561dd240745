/* The options: their table (options.inc) made into descriptions, the
 * values of each type, and the reading of UKASAN_OPTIONS. ASan's keys are
 * asan_options.c's. */
#include "options.h"

#include <string.h>

#include "../base/compiler.h"

#include "../platform/os.h"

#include "log.h"
#include "option_table.h"

struct options opt;

/* An ENUM's CHOICE rows make " word word ...": the table keeps the words
 * from the second character on ("" for the other types). */
const struct option_desc option_table[] = {
#define CHOICE(id, word) " " word
#define OPTION(group, name, field, type, def, min, max, choices, asan, help)                       \
	{name, OPTION_##type, offsetof(struct options, field), def,                                \
	 min,  max,           choices + (sizeof(choices) > 1), asan,                               \
	 help},
#include "options.inc"
};
const size_t option_count = sizeof(option_table) / sizeof(option_table[0]);

/* A name's MAX, for the checks below. */
enum {
#define OPTION(group, name, field, type, def, min, max, choices, asan, help) max_of_##field = max,
#include "options.inc"
};
_Static_assert(max_of_exitcode + 1 == EXITCODE_AUTO, "ukasan.exitcode=auto is its MAX + 1");
_Static_assert(sizeof(opt.log_path) == OPTION_PATH_MAX, "paths are OPTION_PATH_MAX bytes");

/* The rows whose words a layer above registered (CHOICES_FROM): the table
 * itself stays read-only. */
struct registration {
	const struct option_desc *d;
	const char *words, *meanings;
};
static struct registration registered[4];

void option_choices_register(const char *name, const char *words, const char *meanings)
{
	const struct option_desc *d = option_named(name, strlen(name));
	if (!d || d->type != OPTION_ENUM)
		return;
	for (size_t i = 0; i < sizeof(registered) / sizeof(registered[0]); i++) {
		if (!registered[i].d || registered[i].d == d) {
			registered[i].d = d;
			registered[i].words = words;
			registered[i].meanings = meanings;
			return;
		}
	}
}

static const struct registration *registration_of(const struct option_desc *d)
{
	for (size_t i = 0; i < sizeof(registered) / sizeof(registered[0]); i++)
		if (registered[i].d == d)
			return &registered[i];
	return NULL;
}

/* An ENUM's words, "w1 w2 ...": its table's, or those registered. */
static const char *choices_of(const struct option_desc *d)
{
	const struct registration *r = registration_of(d);
	return r ? r->words : d->choices;
}

static unsigned long *slot(const struct option_desc *d)
{
	return (unsigned long *)((char *)&opt + d->offset);
}

const struct option_desc *option_named(const char *name, size_t len)
{
	for (size_t i = 0; i < option_count; i++)
		if (option_word_is(name, len, option_table[i].name))
			return &option_table[i];
	return NULL;
}

const struct option_desc *option_of_asan_key(const char *key, size_t len)
{
	for (size_t i = 0; i < option_count; i++)
		if (option_table[i].asan[0] && option_word_is(key, len, option_table[i].asan))
			return &option_table[i];
	return NULL;
}

int option_word_is(const char *w, size_t len, const char *s)
{
	return strlen(s) == len && !memcmp(w, s, len);
}

void option_copy_word(char *dst, size_t cap, const char *w, size_t len)
{
	size_t n = len < cap - 1 ? len : cap - 1;
	rt_memcpy(dst, w, n);
	dst[n] = 0;
}

static int digit_value(char c, int base)
{
	int d = c >= '0' && c <= '9'   ? c - '0'
	        : c >= 'a' && c <= 'f' ? c - 'a' + 10
	        : c >= 'A' && c <= 'F' ? c - 'A' + 10
	                               : 99;
	return d < base ? d : -1;
}

int option_parse_uint(const char *v, size_t len, unsigned long max, int flags, unsigned long *out)
{
	unsigned long n = 0;
	size_t i = 0, first;
	unsigned base = 10;
	if ((flags & OPTION_NUM_HEX) && len > 2 && v[0] == '0' && (v[1] == 'x' || v[1] == 'X')) {
		base = 16;
		i = 2;
	}
	first = i;
	for (int d; i < len && (d = digit_value(v[i], (int)base)) >= 0; i++) {
		if (n > (~0ul - (unsigned long)d) / base)
			return -1;
		n = n * base + (unsigned long)d;
	}
	if (i == first)
		return -1;
	if ((flags & OPTION_NUM_SUFFIX) && i + 1 == len) {
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

/* The length of the space-separated word at w (libc's strcspn would be the
 * only code the preload runs in its window of libc's text). */
static size_t word_len(const char *w)
{
	size_t n = 0;
	while (w[n] && w[n] != ' ')
		n++;
	return n;
}

const char *option_choice_word(const struct option_desc *d, unsigned long i, char *buf, size_t cap)
{
	const char *w = choices_of(d);
	for (; *w && i; i--) {
		w += word_len(w);
		w += *w == ' ';
	}
	option_copy_word(buf, cap, w, word_len(w));
	return buf;
}

/* The index of the word v among an ENUM's space-separated choices. */
static int parse_choice(const char *choices, const char *v, size_t len, unsigned long *out)
{
	unsigned long i = 0;
	for (const char *w = choices; *w; i++) {
		size_t n = word_len(w);
		if (n == len && !memcmp(w, v, len)) {
			*out = i;
			return 0;
		}
		w += n;
		w += *w == ' ';
	}
	return -1;
}

int option_set(const struct option_desc *d, const char *v, size_t len, int asan_syntax)
{
	unsigned long val = 0;
	int num = asan_syntax ? 0 : OPTION_NUM_HEX, bad = 0;
	switch (d->type) {
	case OPTION_AUTO:
		if (!asan_syntax && option_word_is(v, len, "auto")) {
			val = d->max + 1;
			break;
		}
		/* fall through */
	case OPTION_UINT:
		bad = option_parse_uint(v, len, d->max, num, &val) || val < d->min;
		break;
	case OPTION_SIZE:
		bad = option_parse_uint(v, len, d->max, asan_syntax ? 0 : OPTION_NUM_SUFFIX, &val);
		break;
	case OPTION_BOOL:
		bad = option_parse_bool(v, len, &val);
		break;
	case OPTION_ENUM:
		bad = parse_choice(choices_of(d), v, len, &val);
		break;
	case OPTION_PATH: {
		char *dst = (char *)&opt + d->offset;
		if (!len || len >= OPTION_PATH_MAX)
			return -1;
		rt_memcpy(dst, v, len);
		dst[len] = 0;
		return 0;
	}
	}
	if (bad)
		return -1;
	*slot(d) = val;
	return 0;
}

void option_expected(const struct option_desc *d, int asan_syntax, char *buf, size_t cap)
{
	switch (d->type) {
	case OPTION_ENUM:
		fmt_buf(buf, cap, "one of %s", choices_of(d));
		break;
	case OPTION_BOOL:
		fmt_buf(buf, cap, asan_syntax ? "0 or 1" : "on or off");
		break;
	case OPTION_SIZE:
		if (!asan_syntax) {
			fmt_buf(buf, cap, "a size in bytes, with K, M or G allowed, up to %lu",
			        d->max);
			break;
		}
		/* fall through */
	case OPTION_UINT:
	case OPTION_AUTO:
		fmt_buf(buf, cap, "a whole number from %lu to %lu%s", d->min, d->max,
		        d->type == OPTION_AUTO && !asan_syntax ? ", or auto" : "");
		break;
	case OPTION_PATH:
		fmt_buf(buf, cap, "a path shorter than %d bytes", OPTION_PATH_MAX);
		break;
	}
}

/* Printed through the log, before any report could be, so at start it goes
 * to stderr even when reports go to a file. */
static void print_help(void)
{
	char word[64];
	log_printf("ukasan: options, as NAME=VALUE in UKASAN_OPTIONS separated by ':', ',' or "
	           "white space, with their defaults:\n");
	for (size_t i = 0; i < option_count; i++) {
		const struct option_desc *d = &option_table[i];
		const struct registration *r = registration_of(d);
		const char *meanings = r ? r->meanings : NULL;
		fmt_buf(word, sizeof(word), "%s=%s", d->name, d->def);
		log_printf("  %-34s %s%s%s\n", word, d->help, meanings ? ": " : "",
		           meanings ? meanings : "");
	}
	asan_options_help();
}

static int is_separator(char c)
{
	return c == ' ' || c == ',' || c == ':' || c == '\t' || c == '\n' || c == '\r';
}

/* As sanitizer_common's flag parser: a quote opens only at the start of a
 * value, and ends it; a quote left open takes the rest of the text. */
void options_split(const char *p, const char *from, option_fn *fn, void *ctx)
{
	while (p && *p) {
		while (is_separator(*p))
			p++;
		if (!*p)
			break;
		const char *name = p;
		while (*p && *p != '=' && !is_separator(*p))
			p++;
		size_t nlen = (size_t)(p - name);
		const char *v = p, *end = p;
		int has_value = *p == '=';
		if (has_value) {
			v = ++p;
			char quote = *p == '\'' || *p == '"' ? *p : 0;
			if (quote) {
				v = ++p;
				while (*p && *p != quote)
					p++;
				if (!*p) {
					char n[64];
					option_copy_word(n, sizeof(n), name, nlen);
					log_printf(
					    "ukasan: unterminated quote in %s after %s=; ignored\n",
					    from, n);
					return;
				}
				end = p++;
			} else {
				while (*p && !is_separator(*p))
					p++;
				end = p;
			}
		}
		fn(name, nlen, v, (size_t)(end - v), has_value, ctx);
	}
}

static void apply(const char *name, size_t nlen, const char *v, size_t vlen, int has_value,
                  void *ctx)
{
	const struct option_desc *d = option_named(name, nlen);
	char n[64], val[64], expect[128];
	(void)ctx;
	if (!d) {
		option_copy_word(n, sizeof(n), name, nlen);
		if (nlen)
			log_printf("ukasan: unknown option %s; ignored\n", n);
		else
			log_printf("ukasan: an option with no name in UKASAN_OPTIONS; ignored\n");
		return;
	}
	if (!has_value && d->type == OPTION_BOOL) { /* a bare flag, as kasan_multi_shot */
		*slot(d) = 1;
		return;
	}
	if (!option_set(d, v, vlen, 0))
		return;
	option_copy_word(val, sizeof(val), v, vlen);
	option_expected(d, 0, expect, sizeof(expect));
	log_printf("ukasan: invalid value '%s' for %s (expected %s); using the default %s\n", val,
	           d->name, expect, d->def);
}

void options_parse(const char *text)
{
	options_split(text, "UKASAN_OPTIONS", apply, NULL);
}

/* Not in a set-user-ID or set-group-ID program: its environment is the
 * caller's. */
static void read_env(const char *name, int asan)
{
	const char *env = os_getenv(name);
	if (env && os_secure_exec())
		log_printf("ukasan: %s ignored in a set-user-ID or set-group-ID program\n", name);
	else if (env && asan)
		asan_options_parse(env, name);
	else if (env)
		options_parse(env);
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
	for (size_t i = 0; i < option_count; i++) {
		const struct option_desc *d = &option_table[i];
		if (d->type == OPTION_PATH)
			*((char *)&opt + d->offset) = 0;
		else if (option_set(d, d->def, strlen(d->def), 0))
			log_printf(
			    "ukasan: options.inc's default %s of %s is not a value it takes\n",
			    d->def, d->name);
	}
	opt.asan_log_lines = 0;
	/* On by default for ukasan-cc programs; under the preload only when
	 * set on, which the value tells apart. */
	opt.kmemleak = KMEMLEAK_DEFAULT_ON;
	/* A fuzz target: a report ends the run, as under ASan, whose fuzzing
	 * builds halt on error; one that returned would let the fuzzer take
	 * the input for a clean one and save nothing. The instrumented
	 * accesses of a build without recovery end it anyway, but reports of
	 * the runtime's own (a double free, an interceptor's check, KFENCE)
	 * return unless panic is set. halt_on_error=0 or kasan.fault=report
	 * undo it. */
	if (LLVMFuzzerTestOneInput) {
		opt.kasan_fault = FAULT_PANIC;
		opt.kfence_fault = KFENCE_FAULT_PANIC;
	}
	/* A Go program leaves by the exit_group system call, never through
	 * libc's exit, where a run with reports gets its status: it would end
	 * with 0. A report ends it then, as ASan's do under Go (go build
	 * -asan), by exit with ukasan.exitcode: Go's SIGABRT handler would
	 * print every goroutine's stack over the report. */
	if (x_cgo_init) {
		opt.kasan_fault = FAULT_PANIC;
		opt.kfence_fault = KFENCE_FAULT_PANIC;
		opt.abort_on_error = 0;
	}
	const char *builtin = __asan_default_options ? __asan_default_options() : NULL;
	if (builtin)
		asan_options_parse(builtin, "__asan_default_options");
	read_env("ASAN_OPTIONS", 1);
	/* LSan's leak options, as ASan reads them. */
	read_env("LSAN_OPTIONS", 1);
	read_env("UKASAN_OPTIONS", 0);
	/* Once, whichever variables asked, after every warning of theirs. */
	if (opt.help)
		print_help();
}
