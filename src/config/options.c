#include "options.h"

#include <string.h>

#include "../base/compiler.h"

#include "log.h"

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
};

static const char *const fault_choices[] = {"report", "panic", "panic_on_write", NULL};
static const char *const kfence_fault_choices[] = {"report", "panic", NULL};
static const char *const mode_choices[] = {"sync", "async", "asymm", NULL};

#define OFF(f) offsetof(struct options, f)
static const struct option_desc table[] = {
    {"kfence.sample_interval", K_UINT, OFF(kfence_sample_interval), 100, 86400000, NULL, 0},
    {"kfence.sample_rate", K_UINT, OFF(kfence_sample_rate), 0, 1ul << 30, NULL, 0},
    {"kfence.num_objects", K_UINT, OFF(kfence_num_objects), 255, 16383, NULL, 0},
    {"kfence.skip_covered_thresh", K_UINT, OFF(kfence_skip_covered_thresh), 75, 100, NULL, 0},
    {"kfence.burst", K_UINT, OFF(kfence_burst), 0, 1000, NULL, 0},
    {"kfence.fault", K_ENUM, OFF(kfence_fault), FAULT_REPORT, 0, kfence_fault_choices, 0},
    {"kfence.stats", K_BOOL, OFF(kfence_stats), 0, 1, NULL, 0},
    {"kasan.fault", K_ENUM, OFF(kasan_fault), FAULT_REPORT, 0, fault_choices, 0},
    {"kasan_multi_shot", K_BOOL, OFF(kasan_multi_shot), 0, 1, NULL, 0},
    {"kasan.stacktrace", K_BOOL, OFF(kasan_stacktrace), 1, 1, NULL, 0},
    {"kasan.stack_use_after_return", K_BOOL, OFF(kasan_stack_use_after_return), 0, 1, NULL, 0},
    {"kasan.page_alloc.sample", K_UINT, OFF(kasan_page_alloc_sample), 1, 1ul << 30, NULL, 1},
    {"kasan.page_alloc.sample.order", K_UINT, OFF(kasan_page_alloc_sample_order), 3, 30, NULL, 0},
    {"kasan", K_BOOL, OFF(kasan_on), 0, 1, NULL, 0},
    {"kasan.mode", K_ENUM, OFF(kasan_hw_mode), KASAN_MODE_SYNC, 0, mode_choices, 0},
    {"kasan.stack_ring_size", K_UINT, OFF(kasan_stack_ring_size), 32768, 1ul << 24, NULL, 1},
    {"kasan.stats", K_BOOL, OFF(kasan_stats), 0, 1, NULL, 0},
    {"kasan.quarantine_size", K_SIZE, OFF(kasan_quarantine_size), 256ul << 20, 1ul << 40, NULL, 0},
    {"ukasan.symbolize", K_BOOL, OFF(symbolize), 1, 1, NULL, 0},
    {"ukasan.log_path", K_PATH, OFF(log_path), 0, 0, NULL, 0},
};
#define NOPTS (sizeof(table) / sizeof(table[0]))

static unsigned long *slot(const struct option_desc *d)
{
	return (unsigned long *)((char *)&opt + d->offset);
}

void options_set_defaults(void)
{
	for (size_t i = 0; i < NOPTS; i++)
		if (table[i].kind != K_PATH)
			*slot(&table[i]) = table[i].def;
	opt.log_path[0] = 0;
}

static int word_is(const char *w, size_t len, const char *s)
{
	return strlen(s) == len && !memcmp(w, s, len);
}

static int parse_uint(const char *v, size_t len, unsigned long max, int size_suffix,
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

static int parse_bool(const char *v, size_t len, unsigned long *out)
{
	static const char *const yes[] = {"1", "on", "true", "yes", "y"};
	static const char *const no[] = {"0", "off", "false", "no", "n"};
	for (size_t i = 0; i < 5; i++) {
		if (word_is(v, len, yes[i])) {
			*out = 1;
			return 0;
		}
		if (word_is(v, len, no[i])) {
			*out = 0;
			return 0;
		}
	}
	return -1;
}

static void describe_default(const struct option_desc *d, char *buf, size_t cap)
{
	if (d->kind == K_ENUM)
		fmt_buf(buf, cap, "%s", d->choices[d->def]);
	else if (d->kind == K_BOOL)
		fmt_buf(buf, cap, "%s", d->def ? "on" : "off");
	else
		fmt_buf(buf, cap, "%lu", d->def);
}

static void bad_value(const struct option_desc *d, const char *v, size_t len)
{
	char val[64], def[32], expect[128];
	size_t n = len < sizeof(val) - 1 ? len : sizeof(val) - 1;
	rt_memcpy(val, v, n);
	val[n] = 0;
	describe_default(d, def, sizeof(def));
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

static void apply(const char *name, size_t nlen, const char *v, size_t vlen, int has_value)
{
	const struct option_desc *d = NULL;
	unsigned long val = 0;
	for (size_t i = 0; i < NOPTS; i++)
		if (word_is(name, nlen, table[i].name))
			d = &table[i];
	if (!d) {
		char n[64];
		size_t k = nlen < sizeof(n) - 1 ? nlen : sizeof(n) - 1;
		rt_memcpy(n, name, k);
		n[k] = 0;
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
		bad = parse_uint(v, vlen, d->max, d->kind == K_SIZE, &val) || val < d->min;
		break;
	case K_BOOL:
		bad = parse_bool(v, vlen, &val);
		break;
	case K_ENUM:
		bad = -1;
		for (unsigned long i = 0; d->choices[i]; i++)
			if (word_is(v, vlen, d->choices[i])) {
				val = i;
				bad = 0;
			}
		break;
	case K_PATH:
		if (!vlen || vlen >= sizeof(opt.log_path)) {
			log_printf("ukasan: invalid value for %s (expected a path shorter than %zu "
			           "bytes); reports go to stderr\n",
			           d->name, sizeof(opt.log_path));
			return;
		}
		rt_memcpy(opt.log_path, v, vlen);
		opt.log_path[vlen] = 0;
		return;
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

void options_parse(const char *text)
{
	const char *p = text;
	while (p && *p) {
		while (*p && is_space(*p))
			p++;
		const char *w = p;
		while (*p && !is_space(*p))
			p++;
		if (p == w)
			break;
		const char *eq = memchr(w, '=', (size_t)(p - w));
		if (eq)
			apply(w, (size_t)(eq - w), eq + 1, (size_t)(p - eq - 1), 1);
		else
			apply(w, (size_t)(p - w), p, 0, 0);
	}
}
