/* The reader's parts, shared by demangle.c (names) and demangle_type.c
 * (types, literals, special names). Each returns a node, or -1. */
#ifndef UKASAN_SYMBOLIZE_DEMANGLE_READ_H
#define UKASAN_SYMBOLIZE_DEMANGLE_READ_H

#include "demangle_tree.h"

/* What the name being read says of its function: its quals, whether it
 * ends in template arguments (then the return type is mangled), and
 * whether it is a constructor, destructor or conversion (then it is not). */
struct name_state {
	int quals, rref, tmpl, ctor_conv;
};

int dm_mk(int kind, int a, int b, const char *s, int n);
int dm_text(const char *s);
int dm_look(int i);
int dm_eat(char c);
void dm_add_sub(int n);
int dm_wrap(const char *s, int a, const char *t);
int dm_tag(int a, const char *s, int b, const char *t);
long dm_number(void);
int dm_source_name(void);
int dm_params(int *rref);
int dm_template_param(void);
int dm_template_args(int tagged);
int dm_substitution(void);
int dm_name(struct name_state *st);
int dm_encoding(void);
int dm_type(void);
int dm_literal(void);
int dm_special(void);

#endif
