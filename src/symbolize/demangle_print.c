/* The demangled tree printed as c++filt prints it. A declarator wraps what
 * it declares: "int (*)[3]" is the array's left part, the pointer, then the
 * array's right part, so each node prints a left part and a right part. */
#include <string.h>

#include "demangle_tree.h"

/* Printing a tree whose substitutions are shared can take exponential
 * time before the buffer fills: a bound on the nodes visited. */
#define MAX_STEPS 100000

/* After an empty pack took its ", " away, c++filt's idea of the last
 * character is still the space: "A<B<C>>" then, not "A<B<C> >". */
static int space_last;

static void put(const char *s, size_t n)
{
	if (D.err)
		return;
	space_last = 0;
	if (D.len + n > D.cap) {
		D.err = 1;
		return;
	}
	memcpy(D.out + D.len, s, n);
	D.len += n;
}

static void puts_(const char *s)
{
	put(s, strlen(s));
}

static char last(void)
{
	return space_last ? ' ' : D.len ? D.out[D.len - 1] : 0;
}

static void put_num(int v)
{
	char b[12];
	int i = sizeof(b);
	do
		b[--i] = (char)('0' + v % 10);
	while ((v /= 10) && i > 0);
	put(b + i, sizeof(b) - (size_t)i);
}

/* A pack, while an expansion prints its element pack_index, is that element. */
static int resolve(int n)
{
	for (int k = 0; k < 8 && n >= 0 && D.nodes[n].kind == K_PACK && D.pack_index >= 0; k++) {
		const struct node *l = &D.nodes[D.nodes[n].a];
		n = D.pack_index < l->n ? D.kids[l->b + D.pack_index] : -1;
	}
	if (n < 0)
		D.err = 1;
	return n < 0 ? 0 : n;
}

static int has_array(int n)
{
	n = resolve(n);
	if (D.nodes[n].kind == K_QUAL)
		return has_array(D.nodes[n].a);
	return D.nodes[n].kind == K_ARRAY;
}

static int has_function(int n)
{
	n = resolve(n);
	if (D.nodes[n].kind == K_QUAL)
		return has_function(D.nodes[n].a);
	return D.nodes[n].kind == K_FUNC;
}

/* Whether the type prints a part after what it declares. */
static int has_right(int n)
{
	n = resolve(n);
	switch (D.nodes[n].kind) {
	case K_ARRAY:
	case K_FUNC:
		return 1;
	case K_PTR:
	case K_REF:
	case K_QUAL:
		return has_right(D.nodes[n].a);
	case K_PMEM:
		return has_right(D.nodes[n].b);
	default:
		return 0;
	}
}

static void quals(int q)
{
	if (q & 1)
		puts_(" const");
	if (q & 2)
		puts_(" volatile");
	if (q & 4)
		puts_(" restrict");
}

static void left(int n);
static void right(int n);

void dm_print(int n)
{
	if (n < 0 || D.err || ++D.steps > MAX_STEPS || ++D.depth > 2 * MAX_DEPTH) {
		D.err = 1;
		return;
	}
	left(n);
	right(n);
	D.depth--;
}

/* The elements of a list, ", " between; an empty pack after the first
 * element takes its comma away (the first one leaves the next comma, as in
 * c++filt). */
static void list(int l)
{
	const struct node *x = &D.nodes[l];
	for (int k = 0; k < x->n; k++) {
		size_t mark = D.len;
		if (k)
			put(", ", 2);
		size_t start = D.len;
		dm_print(D.kids[x->b + k]);
		if (k && D.len == start) {
			D.len = mark;
			space_last = 1;
		}
	}
}

/* The number of elements of the first pack in n, or -1. */
static int pack_size(int n, int depth)
{
	if (n < 0 || depth > MAX_DEPTH || ++D.steps > MAX_STEPS)
		return -1;
	const struct node *x = &D.nodes[n];
	if (x->kind == K_PACK)
		return D.nodes[x->a].n;
	if (x->kind == K_LIST) {
		for (int k = 0; k < x->n; k++) {
			int s = pack_size(D.kids[x->b + k], depth + 1);
			if (s >= 0)
				return s;
		}
		return -1;
	}
	if (x->kind == K_EXPAND)
		return -1;
	int s = pack_size(x->a, depth + 1);
	if (s < 0)
		s = pack_size(x->b, depth + 1);
	if (s < 0)
		s = pack_size(x->c, depth + 1);
	return s;
}

static void expand(int pattern)
{
	int size = pack_size(pattern, 0), saved = D.pack_index;
	/* c++filt's words for an empty pack under qualifiers are its own */
	if (size < 0 || (!size && D.nodes[pattern].kind != K_PACK)) {
		D.err = 1;
		return;
	}
	for (int k = 0; k < size; k++) {
		if (k)
			put(", ", 2);
		D.pack_index = k;
		dm_print(pattern);
	}
	D.pack_index = saved;
}

/* The class's name as its constructor is called: its last component. */
static void base_name(int n)
{
	const struct node *x = &D.nodes[n];
	if (x->kind == K_NESTED)
		base_name(x->b);
	else if (x->kind == K_TMPL || (x->kind == K_TAG && x->s[0] == '['))
		base_name(x->a);
	else if (x->kind == K_NAME && strncmp(x->s, "operator", 8))
		put(x->s, (size_t)x->n);
	else
		D.err = 1;
}

/* A reference to a reference is one: && only when both are. Past an
 * element of a pack, *whole: the rest prints with no pack expanded. */
static int collapse(int n, int *rref, int *whole)
{
	int child = D.nodes[n].a;
	*rref = D.nodes[n].rref;
	*whole = 0;
	for (int k = 0; k < 16; k++) {
		int c = resolve(child);
		if (D.nodes[c].kind != K_REF)
			return child;
		*whole |= c != child;
		*rref &= D.nodes[c].rref;
		child = D.nodes[c].a;
	}
	return child;
}

/* An element of a pack prints whole: packs inside it are not expanded by
 * the expansion printing it. */
static int element(int n, void (*part)(int))
{
	if (D.nodes[n].kind != K_PACK || D.pack_index < 0)
		return 0;
	int e = resolve(n), saved = D.pack_index;
	D.pack_index = -1;
	part(e);
	D.pack_index = saved;
	return 1;
}

static void left(int n)
{
	if (element(n, left))
		return;
	const struct node *x = &D.nodes[n];
	int rref, child, whole = 0, saved = D.pack_index;
	switch (x->kind) {
	case K_NAME:
		put(x->s, (size_t)x->n);
		break;
	case K_NESTED:
		dm_print(x->a);
		put("::", 2);
		dm_print(x->b);
		break;
	case K_TMPL:
		dm_print(x->a);
		if (last() == '<')
			put(" ", 1);
		put("<", 1);
		list(x->b);
		if (last() == '>')
			put(" ", 1);
		put(">", 1);
		break;
	case K_LIST:
		list(n);
		break;
	case K_PACK:
		list(x->a);
		break;
	case K_QUAL:
		left(x->a);
		quals(x->quals);
		break;
	case K_PTR:
	case K_REF:
		child = x->kind == K_REF ? collapse(n, &rref, &whole) : x->a;
		if (whole)
			D.pack_index = -1;
		left(child);
		if (has_array(child))
			put(" ", 1);
		if (has_array(child) || has_function(child))
			put("(", 1);
		puts_(x->kind == K_PTR ? "*" : rref ? "&&" : "&");
		D.pack_index = saved;
		break;
	case K_FUNC:
		left(x->a);
		put(" ", 1);
		break;
	case K_ARRAY:
		left(x->a);
		break;
	case K_PMEM:
		left(x->b);
		put(has_array(x->b) || has_function(x->b) ? "(" : " ", 1);
		dm_print(x->a);
		put("::*", 3);
		break;
	case K_ENC:
		if (x->c >= 0) {
			left(x->c);
			if (!has_right(x->c))
				put(" ", 1);
		}
		dm_print(x->a);
		break;
	case K_WRAP:
		puts_(x->s);
		dm_print(x->a);
		puts_(x->t);
		break;
	case K_TAG:
		dm_print(x->a);
		puts_(x->s);
		if (x->b >= 0)
			dm_print(x->b);
		puts_(x->t);
		break;
	case K_CAST:
		put("(", 1);
		dm_print(x->a);
		put(")", 1);
		dm_print(x->b);
		break;
	case K_LAMBDA:
		puts_("{lambda(");
		list(x->b);
		puts_(")#");
		put_num(x->n);
		put("}", 1);
		break;
	case K_UNNAMED:
		puts_("{unnamed type#");
		put_num(x->n);
		put("}", 1);
		break;
	case K_EXPAND:
		expand(x->a);
		break;
	case K_CTOR:
		puts_(x->s);
		base_name(x->a);
		break;
	default:
		D.err = 1;
	}
}

static void right(int n)
{
	if (element(n, right))
		return;
	const struct node *x = &D.nodes[n];
	int rref, child, whole = 0, saved = D.pack_index;
	switch (x->kind) {
	case K_QUAL:
		right(x->a);
		break;
	case K_PTR:
	case K_REF:
		child = x->kind == K_REF ? collapse(n, &rref, &whole) : x->a;
		if (whole)
			D.pack_index = -1;
		if (has_array(child) || has_function(child))
			put(")", 1);
		right(child);
		D.pack_index = saved;
		break;
	case K_FUNC:
		put("(", 1);
		list(x->b);
		put(")", 1);
		right(x->a);
		quals(x->quals);
		puts_(x->rref == 1 ? " &" : x->rref == 2 ? " &&" : "");
		break;
	case K_ARRAY:
		if (last() != ']')
			put(" ", 1);
		put("[", 1);
		put(x->s, (size_t)x->n);
		put("]", 1);
		right(x->a);
		break;
	case K_PMEM:
		if (has_array(x->b) || has_function(x->b))
			put(")", 1);
		right(x->b);
		break;
	case K_ENC:
		put("(", 1);
		list(x->b);
		put(")", 1);
		if (x->c >= 0)
			right(x->c);
		quals(x->quals);
		puts_(x->rref == 1 ? " &" : x->rref == 2 ? " &&" : "");
		break;
	default:
		break;
	}
}
