/* The options table (options.inc) as options.c and asan_options.c read it,
 * and the words of an option string. */
#ifndef UKASAN_CONFIG_OPTION_TABLE_H
#define UKASAN_CONFIG_OPTION_TABLE_H

#include <stddef.h>

#include "../base/compiler.h"

enum option_type { OPTION_UINT, OPTION_SIZE, OPTION_AUTO, OPTION_BOOL, OPTION_ENUM, OPTION_PATH };

/* One row of options.inc. */
struct option_desc {
	const char *name;
	enum option_type type;
	size_t offset; /* in struct options */
	const char *def;
	unsigned long min, max;
	const char *choices; /* ENUM: its words, separated by spaces */
	const char *asan;    /* the ASAN_OPTIONS key of the same meaning, or "" */
	const char *help;
};

extern RT_HIDDEN const struct option_desc option_table[];
extern RT_HIDDEN const size_t option_count;

/* The option of that name in UKASAN_OPTIONS, or in ASAN_OPTIONS (its ASAN
 * column); NULL if none. */
const struct option_desc *option_named(const char *name, size_t len);
const struct option_desc *option_of_asan_key(const char *key, size_t len);

/* Stores a value given in UKASAN_OPTIONS's syntax (asan_syntax 0), or in
 * ASan's (numbers in plain decimal, no K/M/G, no auto), into opt. Returns
 * -1, opt unchanged, when the value is not one the option takes. */
int option_set(const struct option_desc *d, const char *v, size_t len, int asan_syntax);
/* What option_set takes, for the warning of a value it refused. */
void option_expected(const struct option_desc *d, int asan_syntax, char *buf, size_t cap);

/* Splits an option string as sanitizers' parsers do: NAME[=VALUE] words
 * separated by ':', ',' or white space, a value quoted ('...' or "...") to
 * hold those. Calls fn for each; a quote left open is one warning naming
 * the variable `from`, and the rest of the text is ignored. */
typedef void option_fn(const char *name, size_t nlen, const char *v, size_t vlen, int has_value,
                       void *ctx);
void options_split(const char *text, const char *from, option_fn *fn, void *ctx);

/* An ENUM's word of index i, copied into buf ("" past the last). */
const char *option_choice_word(const struct option_desc *d, unsigned long i, char *buf, size_t cap);

int option_word_is(const char *w, size_t len, const char *s);
/* Words are not terminated: a copy, cut short if need be, to print. */
void option_copy_word(char *dst, size_t cap, const char *w, size_t len);
#define OPTION_NUM_SUFFIX 1 /* K, M or G after the number */
#define OPTION_NUM_HEX    2 /* 0x... */
int option_parse_uint(const char *v, size_t len, unsigned long max, int flags, unsigned long *out);
int option_parse_bool(const char *v, size_t len, unsigned long *out);

/* ASan's keys (ASAN_OPTIONS, LSAN_OPTIONS, __asan_default_options): `from`
 * names the source in warnings. */
void asan_options_parse(const char *text, const char *from);
/* help=1's second half: what each ASan key sets. */
void asan_options_help(void);

#endif
