/* The Itanium C++ ABI's mangling read into a tree of nodes from fixed
 * pools, then printed the way binutils' c++filt prints it: a declarator
 * (pointer to function, reference to array) prints in two halves around
 * what it wraps, so a node prints a left and a right part. */
#include "demangle.h"

#include <string.h>

#include "demangle_read.h"

struct dm D;
static volatile int busy;

static int merge_tp(int x, int y)
{
	return !x ? y : !y || x == y ? x : -1;
}

int dm_mk(int kind, int a, int b, const char *s, int n)
{
	if (a < -1 || b < -1)
		return -1; /* a part that failed */
	if (D.nnodes >= MAX_NODES)
		return -1;
	struct node *x = &D.nodes[D.nnodes];
	memset(x, 0, sizeof(*x));
	x->kind = kind;
	x->a = a;
	x->b = b;
	x->c = -1;
	x->s = s;
	x->t = "";
	x->n = n;
	x->tp = merge_tp(a < 0 ? 0 : D.nodes[a].tp, b < 0 ? 0 : D.nodes[b].tp);
	return D.nnodes++;
}

int dm_text(const char *s)
{
	return dm_mk(K_NAME, -1, -1, s, (int)strlen(s));
}

int dm_look(int i)
{
	return D.p + i < D.end ? D.p[i] : 0;
}

int dm_eat(char c)
{
	if (dm_look(0) != c)
		return 0;
	D.p++;
	return 1;
}

void dm_add_sub(int n)
{
	if (n >= 0 && D.nsubs < MAX_SUBS)
		D.subs[D.nsubs++] = n;
}

/* A list node over n items, copied to the kids pool together (the items'
 * own lists were put there while they were read). */
static int list_of(const int *items, int n)
{
	if (D.nkids + n > MAX_KIDS)
		return -1;
	memcpy(D.kids + D.nkids, items, sizeof(int) * (size_t)n);
	D.nkids += n;
	int l = dm_mk(K_LIST, -1, D.nkids - n, NULL, n);
	for (int k = 0; l >= 0 && k < n; k++)
		D.nodes[l].tp = merge_tp(D.nodes[l].tp, D.nodes[items[k]].tp);
	return l;
}

int dm_wrap(const char *s, int a, const char *t)
{
	int w = a < 0 ? -1 : dm_mk(K_WRAP, a, -1, s, 0);
	if (w >= 0)
		D.nodes[w].t = t;
	return w;
}

int dm_tag(int a, const char *s, int b, const char *t)
{
	int w = dm_mk(K_TAG, a, b, s, 0);
	if (a < 0 || w < 0)
		return -1;
	D.nodes[w].t = t;
	return w;
}

/* A decimal number, or -1. */
long dm_number(void)
{
	long v = 0;
	if (dm_look(0) < '0' || dm_look(0) > '9')
		return -1;
	while (dm_look(0) >= '0' && dm_look(0) <= '9' && v < 100000000)
		v = v * 10 + (*D.p++ - '0');
	return v;
}

/* "_" for 0, "<base 36>_" for n + 1 (substitutions, template parameters). */
static long seq_id(void)
{
	long v = 0;
	if (dm_eat('_'))
		return 0;
	while (v < 100000) {
		int c = dm_look(0);
		if (c >= '0' && c <= '9')
			v = v * 36 + (c - '0');
		else if (c >= 'A' && c <= 'Z')
			v = v * 36 + (c - 'A' + 10);
		else
			break;
		D.p++;
	}
	return dm_eat('_') ? v + 1 : -1;
}

int dm_source_name(void)
{
	long len = dm_number();
	if (len <= 0 || len > D.end - D.p)
		return -1;
	const char *s = D.p;
	D.p += len;
	if (len >= 10 && !strncmp(s, "_GLOBAL__N", 10))
		return dm_text("(anonymous namespace)");
	return dm_mk(K_NAME, -1, -1, s, (int)len);
}

/* "_ <digit>" or "__ <number> _": numbers local entities, printed by no one. */
static void discriminator(void)
{
	if (dm_look(0) == '_' && dm_look(1) >= '0' && dm_look(1) <= '9')
		D.p += 2;
	else if (dm_look(0) == '_' && dm_look(1) == '_') {
		D.p += 2;
		dm_number();
		dm_eat('_');
	}
}

static const char *const operators[][2] = {
    {"nw", "operator new"},      {"na", "operator new[]"}, {"dl", "operator delete"},
    {"da", "operator delete[]"}, {"ps", "operator+"},      {"ng", "operator-"},
    {"ad", "operator&"},         {"de", "operator*"},      {"co", "operator~"},
    {"pl", "operator+"},         {"mi", "operator-"},      {"ml", "operator*"},
    {"dv", "operator/"},         {"rm", "operator%"},      {"an", "operator&"},
    {"or", "operator|"},         {"eo", "operator^"},      {"aS", "operator="},
    {"pL", "operator+="},        {"mI", "operator-="},     {"mL", "operator*="},
    {"dV", "operator/="},        {"rM", "operator%="},     {"aN", "operator&="},
    {"oR", "operator|="},        {"eO", "operator^="},     {"ls", "operator<<"},
    {"rs", "operator>>"},        {"lS", "operator<<="},    {"rS", "operator>>="},
    {"eq", "operator=="},        {"ne", "operator!="},     {"lt", "operator<"},
    {"gt", "operator>"},         {"le", "operator<="},     {"ge", "operator>="},
    {"ss", "operator<=>"},       {"nt", "operator!"},      {"aa", "operator&&"},
    {"oo", "operator||"},        {"pp", "operator++"},     {"mm", "operator--"},
    {"cm", "operator,"},         {"pm", "operator->*"},    {"pt", "operator->"},
    {"cl", "operator()"},        {"ix", "operator[]"},     {"qu", "operator?"},
    {"aw", "operator co_await"},
};

static int operator_name(struct name_state *st)
{
	if (dm_look(0) == 'c' && dm_look(1) == 'v') {
		D.p += 2;
		if (st)
			st->ctor_conv = 1;
		int t = dm_type();
		return t < 0 ? -1 : dm_wrap("operator ", t, "");
	}
	if (dm_look(0) == 'l' && dm_look(1) == 'i') {
		D.p += 2;
		int s = dm_source_name();
		return s < 0 ? -1 : dm_wrap("operator\"\" ", s, "");
	}
	for (size_t i = 0; i < sizeof(operators) / sizeof(operators[0]); i++)
		if (dm_look(0) == operators[i][0][0] && dm_look(1) == operators[i][0][1]) {
			D.p += 2;
			return dm_text(operators[i][1]);
		}
	return -1;
}

/* The parameter types of a function, up to E (or the end): "v" alone is
 * none. A ref-qualifier before E goes to *rref. */
int dm_params(int *rref)
{
	int items[MAX_ITEMS], n = 0, void_only = 0;
	if (dm_look(0) == 'v' && (dm_look(1) == 'E' || dm_look(1) == '.' || !dm_look(1))) {
		D.p++;
		void_only = 1;
	}
	while (dm_look(0) && dm_look(0) != 'E' && dm_look(0) != '.') {
		if (rref && (dm_look(0) == 'R' || dm_look(0) == 'O') && dm_look(1) == 'E') {
			*rref = dm_look(0) == 'R' ? 1 : 2;
			D.p++;
			break;
		}
		if (n == MAX_ITEMS || (items[n++] = dm_type()) < 0)
			return -1;
	}
	if (!n && !void_only)
		return -1; /* "F i E": no parameter types, which c++filt refuses */
	return list_of(items, n);
}

static int unqualified(struct name_state *st, int prefix)
{
	int r, c = dm_look(0);
	if (c >= '0' && c <= '9')
		r = dm_source_name();
	else if (c == 'L') {
		D.p++;
		r = dm_source_name();
		discriminator();
	} else if (c == 'U' && dm_look(1) == 't') {
		D.p += 2;
		long n = dm_look(0) == '_' ? 0 : dm_number() + 1;
		r = dm_eat('_') && n >= 0 ? dm_mk(K_UNNAMED, -1, -1, NULL, (int)n + 1) : -1;
	} else if (c == 'U' && dm_look(1) == 'l') {
		D.p += 2;
		if (dm_look(0) == 'T')
			return -1; /* template parameters of a generic lambda */
		D.in_lambda++;
		int ps = dm_params(NULL);
		D.in_lambda--;
		long n = dm_eat('E') ? (dm_look(0) == '_' ? 0 : dm_number() + 1) : -1;
		r = n >= 0 && ps >= 0 && dm_eat('_') ? dm_mk(K_LAMBDA, -1, ps, NULL, (int)n + 1)
		                                     : -1;
	} else if ((c == 'C' && dm_look(1) >= '1' && dm_look(1) <= '3') ||
	           (c == 'D' && dm_look(1) >= '0' && dm_look(1) <= '2')) {
		if (prefix < 0)
			return -1;
		D.p += 2;
		if (st)
			st->ctor_conv = 1;
		r = dm_mk(K_CTOR, prefix, -1, c == 'D' ? "~" : "", c == 'D');
	} else if (c >= 'a' && c <= 'z')
		r = operator_name(st);
	else
		return -1;
	while (r >= 0 && dm_look(0) == 'B') {
		D.p++;
		int t = dm_source_name();
		if (t < 0)
			return -1;
		r = dm_tag(r, "[abi:", t, "]");
	}
	return r;
}

/* <template-arg>* E. The arguments of the name being declared (tag) are
 * what its T_ parameters name. */
static int args_to_end(int tagged)
{
	int items[MAX_ITEMS], n = 0;
	if (tagged) {
		D.ntparams = 0;
		D.ctx = ++D.nctx;
	}
	while (!dm_eat('E')) {
		int a;
		if (!dm_look(0) || n == MAX_ITEMS)
			return -1;
		if (dm_look(0) == 'L')
			a = dm_literal();
		else if (dm_eat('J')) {
			a = args_to_end(0);
			a = a < 0 ? -1 : dm_mk(K_PACK, a, -1, NULL, 0);
		} else if (dm_look(0) == 'X' && dm_look(1) == 'T') {
			D.p++; /* the one expression read: a template parameter */
			a = dm_template_param();
			if (!dm_eat('E'))
				return -1;
		} else if (dm_look(0) == 'X')
			return -1; /* other expressions */
		else
			a = dm_type();
		if (a < 0)
			return -1;
		items[n++] = a;
		if (tagged && D.ntparams < 64)
			D.tparams[D.ntparams++] = a;
	}
	return list_of(items, n);
}

int dm_template_args(int tagged)
{
	if (!dm_eat('I') || ++D.depth > MAX_DEPTH)
		return -1;
	int r = args_to_end(tagged);
	D.depth--;
	return r;
}

/* The expansions of Sa, Sb, Ss, Si, So and Sd, which c++filt prints whole. */
static const char *const std_subs[][2] = {
    {"a", "St9allocator"},
    {"b", "St12basic_string"},
    {"s", "NSt12basic_stringIcSt11char_traitsIcESaIcEEE"},
    {"i", "NSt13basic_istreamIcSt11char_traitsIcEEE"},
    {"o", "NSt13basic_ostreamIcSt11char_traitsIcEEE"},
    {"d", "NSt14basic_iostreamIcSt11char_traitsIcEEE"},
};

/* S_, S<id>_ or one of the std abbreviations (not St). */
int dm_substitution(void)
{
	D.p++;
	for (size_t i = 0; i < sizeof(std_subs) / sizeof(std_subs[0]); i++)
		if (dm_look(0) == std_subs[i][0][0]) {
			const char *p = D.p + 1, *end = D.end;
			int nsubs = D.nsubs;
			D.p = std_subs[i][1];
			D.end = D.p + strlen(D.p);
			int r = dm_type();
			D.p = p;
			D.end = end;
			D.nsubs = nsubs;
			return r;
		}
	long id = seq_id();
	if (id < 0 || id >= D.nsubs)
		return -1;
	/* c++filt reads a T_ in the template context where it is printed,
	 * not where it was mangled: unlike ours, where they differ */
	int tp = D.nodes[D.subs[id]].tp;
	return tp && tp != D.ctx ? -1 : D.subs[id];
}

int dm_template_param(void)
{
	D.p++;
	long id = seq_id();
	if (id < 0 || id >= D.ntparams || D.in_lambda || D.nnodes >= MAX_NODES)
		return -1;
	D.nodes[D.nnodes] = D.nodes[D.tparams[id]];
	D.nodes[D.nnodes].tp = D.ctx;
	return D.nnodes++;
}

/* N [quals] [ref] <prefix component>+ E: each component but the last is a
 * substitution. */
static int nested(struct name_state *st)
{
	int so_far = -1, quals = 0, rref = 0, pushed = 0;
	D.p++;
	for (;; D.p++) {
		if (dm_look(0) == 'K')
			quals |= 1;
		else if (dm_look(0) == 'V')
			quals |= 2;
		else if (dm_look(0) == 'r')
			quals |= 4;
		else
			break;
	}
	if (dm_look(0) == 'R' || dm_look(0) == 'O')
		rref = *D.p++ == 'R' ? 1 : 2;
	if (!st && (quals || rref))
		return -1; /* only a function's name has them */
	if (st) {
		st->quals = quals;
		st->rref = rref;
	}
	while (!dm_eat('E')) {
		int ends_tmpl = 0;
		if (dm_look(0) == 'T') {
			if (so_far >= 0)
				return -1;
			so_far = dm_template_param();
		} else if (dm_look(0) == 'I') {
			if (so_far < 0)
				return -1;
			int args = dm_template_args(st != NULL);
			so_far = args < 0 ? -1 : dm_mk(K_TMPL, so_far, args, NULL, 0);
			ends_tmpl = 1;
		} else if (dm_look(0) == 'S' && dm_look(1) == 't') {
			if (so_far >= 0)
				return -1;
			D.p += 2;
			so_far = dm_text("std");
			continue;
		} else if (dm_look(0) == 'S') {
			if (so_far >= 0)
				return -1;
			so_far = dm_substitution();
			if (so_far < 0)
				return -1;
			continue;
		} else {
			int u = unqualified(st, so_far);
			if (u < 0)
				return -1;
			so_far = so_far < 0 ? u : dm_mk(K_NESTED, so_far, u, NULL, 0);
		}
		if (so_far < 0 || !dm_look(0))
			return -1;
		if (st)
			st->tmpl = ends_tmpl;
		dm_add_sub(so_far);
		pushed = 1;
	}
	if (!pushed)
		return -1;
	D.nsubs--;
	return so_far;
}

int dm_name(struct name_state *st)
{
	int r, is_sub = 0;
	if (++D.depth > MAX_DEPTH)
		return -1;
	if (dm_look(0) == 'N') {
		r = nested(st);
	} else if (dm_look(0) == 'Z') {
		/* A local name inside a type (a lambda as a template argument)
		 * has template parameters of its own: the outer ones come back. */
		int saved[64], nsaved = D.ntparams, ctx = D.ctx;
		memcpy(saved, D.tparams, sizeof(saved));
		D.p++;
		int e = dm_encoding();
		if (e < 0 || !dm_eat('E'))
			return -1;
		if (D.nodes[e].kind == K_ENC)
			D.nodes[e].c = -1; /* c++filt prints no return type here */
		int entity;
		if (dm_eat('s'))
			entity = dm_text("string literal");
		else if (dm_look(0) == 'd')
			return -1;
		else
			entity = dm_name(st);
		discriminator();
		r = entity < 0 ? -1 : dm_mk(K_NESTED, e, entity, NULL, 0);
		if (!st) {
			memcpy(D.tparams, saved, sizeof(saved));
			D.ntparams = nsaved;
			D.ctx = ctx;
		}
	} else {
		if (dm_look(0) == 'S' && dm_look(1) == 't') {
			D.p += 2;
			int u = unqualified(st, -1);
			r = u < 0 ? -1 : dm_mk(K_NESTED, dm_text("std"), u, NULL, 0);
		} else if (dm_look(0) == 'S') {
			r = dm_substitution();
			is_sub = 1;
		} else
			r = unqualified(st, -1);
		if (r >= 0 && dm_look(0) == 'I') {
			if (!is_sub)
				dm_add_sub(r);
			int args = dm_template_args(st != NULL);
			r = args < 0 ? -1 : dm_mk(K_TMPL, r, args, NULL, 0);
			if (st)
				st->tmpl = 1;
		} else if (is_sub)
			r = -1;
	}
	D.depth--;
	return r;
}

int dm_encoding(void)
{
	struct name_state st = {0, 0, 0, 0};
	if (++D.depth > MAX_DEPTH)
		return -1;
	if (dm_look(0) == 'T' || dm_look(0) == 'G') {
		int r = dm_special();
		D.depth--;
		return r;
	}
	int n = dm_name(&st), ret = -1;
	if (n < 0)
		return -1;
	D.depth--;
	if (!dm_look(0) || dm_look(0) == 'E' || dm_look(0) == '.')
		return st.quals || st.rref ? -1 : n; /* a const datum: not ours to word */
	if (st.tmpl && !st.ctor_conv && (ret = dm_type()) < 0)
		return -1;
	if (ret >= 0 && (!dm_look(0) || dm_look(0) == '.'))
		return -1; /* a return type and no parameters: c++filt gives up */
	int ps = dm_params(NULL);
	int e = ps < 0 ? -1 : dm_mk(K_ENC, n, ps, NULL, 0);
	if (e < 0)
		return -1;
	D.nodes[e].c = ret;
	D.nodes[e].quals = st.quals;
	D.nodes[e].rref = st.rref;
	return e;
}

static int is_lower(int c)
{
	return c >= 'a' && c <= 'z';
}
static int is_digit(int c)
{
	return c >= '0' && c <= '9';
}

/* GCC's clones, ".cold", ".constprop.0.isra.0": " [clone .constprop.0]" each. */
static int clones(int e)
{
	while (e >= 0 && dm_look(0) == '.' &&
	       (is_lower(dm_look(1)) || is_digit(dm_look(1)) || dm_look(1) == '_')) {
		const char *s = D.p;
		D.p += 2;
		while (is_lower(dm_look(0)) || is_digit(dm_look(0)) || dm_look(0) == '_')
			D.p++;
		while (dm_look(0) == '.' && is_digit(dm_look(1))) {
			D.p += 2;
			while (is_digit(dm_look(0)))
				D.p++;
		}
		e = dm_tag(e, " [clone ", dm_mk(K_NAME, -1, -1, s, (int)(D.p - s)), "]");
	}
	return e;
}

static int demangle(const char *mangled, char *out, size_t cap, int bare)
{
	int rc = -1;
	if (!mangled || mangled[0] != '_' || mangled[1] != 'Z' || cap < 2)
		return -1;
	if (__atomic_exchange_n(&busy, 1, __ATOMIC_ACQUIRE))
		return -1;
	D.p = mangled + 2;
	D.end = D.p + strlen(D.p);
	D.nnodes = D.nkids = D.nsubs = D.ntparams = D.ctx = D.nctx = 0;
	D.depth = D.in_lambda = D.steps = D.err = 0;
	D.pack_index = -1;
	int e = clones(dm_encoding());
	if (bare && e >= 0) {
		/* a function's name alone: no clone, return type, parameters */
		while (D.nodes[e].kind == K_TAG && !strcmp(D.nodes[e].s, " [clone "))
			e = D.nodes[e].a;
		if (D.nodes[e].kind == K_ENC)
			e = D.nodes[e].a;
	}
	if (e >= 0 && D.p == D.end) {
		D.out = out;
		D.cap = cap - 1;
		D.len = 0;
		D.depth = 0;
		dm_print(e);
		out[D.len] = 0;
		rc = D.err ? -1 : 0;
	}
	__atomic_store_n(&busy, 0, __ATOMIC_RELEASE);
	return rc;
}

int cxx_demangle(const char *mangled, char *out, size_t cap)
{
	return demangle(mangled, out, cap, 0);
}

int cxx_demangle_name(const char *mangled, char *out, size_t cap)
{
	return demangle(mangled, out, cap, 1);
}
