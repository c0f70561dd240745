/* The demangler's tree, shared by its reader (demangle.c) and its printer
 * (demangle_print.c). Nodes are indices into fixed pools; -1 is none. */
#ifndef UKASAN_SYMBOLIZE_DEMANGLE_TREE_H
#define UKASAN_SYMBOLIZE_DEMANGLE_TREE_H

#include <stddef.h>

#include "../base/compiler.h"

enum kind {
	K_NAME,    /* s[0..n) */
	K_NESTED,  /* a::b */
	K_TMPL,    /* a<b> */
	K_LIST,    /* n kids from kids[b], comma-separated */
	K_PACK,    /* a template argument pack: the K_LIST a */
	K_QUAL,    /* a, then quals */
	K_PTR,     /* a* */
	K_REF,     /* a&, or a&& when rref */
	K_FUNC,    /* a (return) b (parameters), quals, rref */
	K_ARRAY,   /* a [s[0..n)] */
	K_PMEM,    /* b a::* */
	K_ENC,     /* c (return) a (name) b (parameters), quals, rref */
	K_WRAP,    /* s a t */
	K_TAG,     /* a s b t */
	K_CAST,    /* (a)b */
	K_LAMBDA,  /* {lambda(b)#n} */
	K_UNNAMED, /* {unnamed type#n} */
	K_EXPAND,  /* a, once for each element of the pack in it */
	K_CTOR,    /* s, then the last component of the class a */
};

struct node {
	unsigned char kind, quals, rref;
	int a, b, c, n;
	int tp; /* the template context of the T_ in it: 0 none, -1 several */
	const char *s, *t;
};

#define MAX_NODES 2048
#define MAX_KIDS  4096
#define MAX_SUBS  256
#define MAX_ITEMS 48 /* in one list */
#define MAX_DEPTH 64

struct dm {
	const char *p, *end;
	struct node nodes[MAX_NODES];
	int nnodes, kids[MAX_KIDS], nkids;
	int subs[MAX_SUBS], nsubs;
	int tparams[64], ntparams, ctx, nctx;
	int depth, in_lambda, pack_index, steps;
	char *out;
	size_t len, cap;
	int err;
};

extern RT_HIDDEN struct dm D;

/* Print node n into D.out; D.err on overflow or a node it cannot print. */
void dm_print(int n);

#endif
