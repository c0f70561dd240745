/* What options.c and asan_options.c share: the words of an option string
 * (not terminated) and the help text. */
#ifndef UKASAN_CONFIG_OPTION_WORDS_H
#define UKASAN_CONFIG_OPTION_WORDS_H

#include <stddef.h>

int option_word_is(const char *w, size_t len, const char *s);
/* A copy, cut short if need be, to print. */
void option_copy_word(char *dst, size_t cap, const char *w, size_t len);
int option_parse_uint(const char *v, size_t len, unsigned long max, int size_suffix,
                      unsigned long *out);
int option_parse_bool(const char *v, size_t len, unsigned long *out);
/* help=1: every option, then ASan's keys (once). */
void options_print_help(void);
void asan_options_help(void);
/* ASan's syntax: key=value separated by ':', ',' or white space. */
void asan_options_parse(const char *text);

#endif
