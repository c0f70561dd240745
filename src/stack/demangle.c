/* The Itanium C++ ABI's mangling read into a tree of nodes from fixed
 * pools, then printed the way binutils' c++filt prints it: a declarator
 * (pointer to function, reference to array) prints in two halves around
 * what it wraps, so a node prints a left and a right part. */
#include "demangle.h"

#include <string.h>

#include "demangle_tree.h"

struct dm D;
static volatile int busy;

/* What the name being read says of its function: its quals, whether it
 * ends in template arguments (then the return type is mangled), and
 * whether it is a constructor, destructor or conversion (then it is not). */
struct name_state {
	int quals, rref, tmpl, ctor_conv;
};

static int merge_tp(int x, int y)
{
	return !x ? y : !y || x == y ? x : -1;
}

static int mk(int kind, int a, int b, const char *s, int n)
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

static int text(const char *s)
{
	return mk(K_NAME, -1, -1, s, (int)strlen(s));
}

static int look(int i)
{
	return D.p + i < D.end ? D.p[i] : 0;
}

static int eat(char c)
{
	if (look(0) != c)
		return 0;
	D.p++;
	return 1;
}

static void add_sub(int n)
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
	int l = mk(K_LIST, -1, D.nkids - n, NULL, n);
	for (int k = 0; l >= 0 && k < n; k++)
		D.nodes[l].tp = merge_tp(D.nodes[l].tp, D.nodes[items[k]].tp);
	return l;
}

static int wrap(const char *s, int a, const char *t)
{
	int w = a < 0 ? -1 : mk(K_WRAP, a, -1, s, 0);
	if (w >= 0)
		D.nodes[w].t = t;
	return w;
}

static int tag(int a, const char *s, int b, const char *t)
{
	int w = mk(K_TAG, a, b, s, 0);
	if (a < 0 || w < 0)
		return -1;
	D.nodes[w].t = t;
	return w;
}

/* A decimal number, or -1. */
static long number(void)
{
	long v = 0;
	if (look(0) < '0' || look(0) > '9')
		return -1;
	while (look(0) >= '0' && look(0) <= '9' && v < 100000000)
		v = v * 10 + (*D.p++ - '0');
	return v;
}

/* "_" for 0, "<base 36>_" for n + 1 (substitutions, template parameters). */
static long seq_id(void)
{
	long v = 0;
	if (eat('_'))
		return 0;
	while (v < 100000) {
		int c = look(0);
		if (c >= '0' && c <= '9')
			v = v * 36 + (c - '0');
		else if (c >= 'A' && c <= 'Z')
			v = v * 36 + (c - 'A' + 10);
		else
			break;
		D.p++;
	}
	return eat('_') ? v + 1 : -1;
}

static int type(void);
static int name(struct name_state *st);
static int encoding(void);

static int source_name(void)
{
	long len = number();
	if (len <= 0 || len > D.end - D.p)
		return -1;
	const char *s = D.p;
	D.p += len;
	if (len >= 10 && !strncmp(s, "_GLOBAL__N", 10))
		return text("(anonymous namespace)");
	return mk(K_NAME, -1, -1, s, (int)len);
}

/* "_ <digit>" or "__ <number> _": numbers local entities, printed by no one. */
static void discriminator(void)
{
	if (look(0) == '_' && look(1) >= '0' && look(1) <= '9')
		D.p += 2;
	else if (look(0) == '_' && look(1) == '_') {
		D.p += 2;
		number();
		eat('_');
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
	if (look(0) == 'c' && look(1) == 'v') {
		D.p += 2;
		if (st)
			st->ctor_conv = 1;
		int t = type();
		return t < 0 ? -1 : wrap("operator ", t, "");
	}
	if (look(0) == 'l' && look(1) == 'i') {
		D.p += 2;
		int s = source_name();
		return s < 0 ? -1 : wrap("operator\"\" ", s, "");
	}
	for (size_t i = 0; i < sizeof(operators) / sizeof(operators[0]); i++)
		if (look(0) == operators[i][0][0] && look(1) == operators[i][0][1]) {
			D.p += 2;
			return text(operators[i][1]);
		}
	return -1;
}

/* The parameter types of a function, up to E (or the end): "v" alone is
 * none. A ref-qualifier before E goes to *rref. */
static int params(int *rref)
{
	int items[MAX_ITEMS], n = 0, void_only = 0;
	if (look(0) == 'v' && (look(1) == 'E' || look(1) == '.' || !look(1))) {
		D.p++;
		void_only = 1;
	}
	while (look(0) && look(0) != 'E' && look(0) != '.') {
		if (rref && (look(0) == 'R' || look(0) == 'O') && look(1) == 'E') {
			*rref = look(0) == 'R' ? 1 : 2;
			D.p++;
			break;
		}
		if (n == MAX_ITEMS || (items[n++] = type()) < 0)
			return -1;
	}
	if (!n && !void_only)
		return -1; /* "F i E": no parameter types, which c++filt refuses */
	return list_of(items, n);
}

static int unqualified(struct name_state *st, int prefix)
{
	int r, c = look(0);
	if (c >= '0' && c <= '9')
		r = source_name();
	else if (c == 'L') {
		D.p++;
		r = source_name();
		discriminator();
	} else if (c == 'U' && look(1) == 't') {
		D.p += 2;
		long n = look(0) == '_' ? 0 : number() + 1;
		r = eat('_') && n >= 0 ? mk(K_UNNAMED, -1, -1, NULL, (int)n + 1) : -1;
	} else if (c == 'U' && look(1) == 'l') {
		D.p += 2;
		if (look(0) == 'T')
			return -1; /* template parameters of a generic lambda */
		D.in_lambda++;
		int ps = params(NULL);
		D.in_lambda--;
		long n = eat('E') ? (look(0) == '_' ? 0 : number() + 1) : -1;
		r = n >= 0 && ps >= 0 && eat('_') ? mk(K_LAMBDA, -1, ps, NULL, (int)n + 1) : -1;
	} else if ((c == 'C' && look(1) >= '1' && look(1) <= '3') ||
	           (c == 'D' && look(1) >= '0' && look(1) <= '2')) {
		if (prefix < 0)
			return -1;
		D.p += 2;
		if (st)
			st->ctor_conv = 1;
		r = mk(K_CTOR, prefix, -1, c == 'D' ? "~" : "", c == 'D');
	} else if (c >= 'a' && c <= 'z')
		r = operator_name(st);
	else
		return -1;
	while (r >= 0 && look(0) == 'B') {
		D.p++;
		int t = source_name();
		if (t < 0)
			return -1;
		r = tag(r, "[abi:", t, "]");
	}
	return r;
}

static int literal(void);
static int template_param(void);

/* <template-arg>* E. The arguments of the name being declared (tag) are
 * what its T_ parameters name. */
static int args_to_end(int tagged)
{
	int items[MAX_ITEMS], n = 0;
	if (tagged) {
		D.ntparams = 0;
		D.ctx = ++D.nctx;
	}
	while (!eat('E')) {
		int a;
		if (!look(0) || n == MAX_ITEMS)
			return -1;
		if (look(0) == 'L')
			a = literal();
		else if (eat('J')) {
			a = args_to_end(0);
			a = a < 0 ? -1 : mk(K_PACK, a, -1, NULL, 0);
		} else if (look(0) == 'X' && look(1) == 'T') {
			D.p++; /* the one expression read: a template parameter */
			a = template_param();
			if (!eat('E'))
				return -1;
		} else if (look(0) == 'X')
			return -1; /* other expressions */
		else
			a = type();
		if (a < 0)
			return -1;
		items[n++] = a;
		if (tagged && D.ntparams < 64)
			D.tparams[D.ntparams++] = a;
	}
	return list_of(items, n);
}

static int template_args(int tagged)
{
	if (!eat('I') || ++D.depth > MAX_DEPTH)
		return -1;
	int r = args_to_end(tagged);
	D.depth--;
	return r;
}

static const struct {
	char c;
	const char *suffix;
} int_suffix[] = {{'i', ""}, {'j', "u"}, {'l', "l"}, {'m', "ul"}, {'x', "ll"}, {'y', "ull"}};

/* L <type> <value> E, or L _Z <encoding> E */
static int literal(void)
{
	D.p++;
	if (look(0) == '_' && look(1) == 'Z') {
		D.p += 2;
		int e = encoding();
		return eat('E') ? e : -1;
	}
	char t = (char)look(0);
	int ty = type();
	const char *v = D.p;
	while (look(0) && look(0) != 'E')
		D.p++;
	int len = (int)(D.p - v);
	if (ty < 0 || !eat('E') || !len || (v[0] == 'n' && len == 1))
		return -1;
	if (t == 'b' && len == 1 && (v[0] == '0' || v[0] == '1'))
		return text(v[0] == '1' ? "true" : "false");
	int neg = v[0] == 'n';
	int num = mk(K_NAME, -1, -1, v + neg, len - neg);
	if (neg)
		num = wrap("-", num, "");
	if (t == 'f' || t == 'd' || t == 'e' || t == 'g')
		num = wrap("[", num, "]");
	for (size_t i = 0; i < sizeof(int_suffix) / sizeof(int_suffix[0]); i++)
		if (t == int_suffix[i].c)
			return tag(num, int_suffix[i].suffix, -1, "");
	return mk(K_CAST, ty, num, NULL, 0);
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
static int substitution(void)
{
	D.p++;
	for (size_t i = 0; i < sizeof(std_subs) / sizeof(std_subs[0]); i++)
		if (look(0) == std_subs[i][0][0]) {
			const char *p = D.p + 1, *end = D.end;
			int nsubs = D.nsubs;
			D.p = std_subs[i][1];
			D.end = D.p + strlen(D.p);
			int r = type();
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

static int template_param(void)
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
		if (look(0) == 'K')
			quals |= 1;
		else if (look(0) == 'V')
			quals |= 2;
		else if (look(0) == 'r')
			quals |= 4;
		else
			break;
	}
	if (look(0) == 'R' || look(0) == 'O')
		rref = *D.p++ == 'R' ? 1 : 2;
	if (!st && (quals || rref))
		return -1; /* only a function's name has them */
	if (st) {
		st->quals = quals;
		st->rref = rref;
	}
	while (!eat('E')) {
		int ends_tmpl = 0;
		if (look(0) == 'T') {
			if (so_far >= 0)
				return -1;
			so_far = template_param();
		} else if (look(0) == 'I') {
			if (so_far < 0)
				return -1;
			int args = template_args(st != NULL);
			so_far = args < 0 ? -1 : mk(K_TMPL, so_far, args, NULL, 0);
			ends_tmpl = 1;
		} else if (look(0) == 'S' && look(1) == 't') {
			if (so_far >= 0)
				return -1;
			D.p += 2;
			so_far = text("std");
			continue;
		} else if (look(0) == 'S') {
			if (so_far >= 0)
				return -1;
			so_far = substitution();
			if (so_far < 0)
				return -1;
			continue;
		} else {
			int u = unqualified(st, so_far);
			if (u < 0)
				return -1;
			so_far = so_far < 0 ? u : mk(K_NESTED, so_far, u, NULL, 0);
		}
		if (so_far < 0 || !look(0))
			return -1;
		if (st)
			st->tmpl = ends_tmpl;
		add_sub(so_far);
		pushed = 1;
	}
	if (!pushed)
		return -1;
	D.nsubs--;
	return so_far;
}

static int name(struct name_state *st)
{
	int r, is_sub = 0;
	if (++D.depth > MAX_DEPTH)
		return -1;
	if (look(0) == 'N') {
		r = nested(st);
	} else if (look(0) == 'Z') {
		/* A local name inside a type (a lambda as a template argument)
		 * has template parameters of its own: the outer ones come back. */
		int saved[64], nsaved = D.ntparams, ctx = D.ctx;
		memcpy(saved, D.tparams, sizeof(saved));
		D.p++;
		int e = encoding();
		if (e < 0 || !eat('E'))
			return -1;
		if (D.nodes[e].kind == K_ENC)
			D.nodes[e].c = -1; /* c++filt prints no return type here */
		int entity;
		if (eat('s'))
			entity = text("string literal");
		else if (look(0) == 'd')
			return -1;
		else
			entity = name(st);
		discriminator();
		r = entity < 0 ? -1 : mk(K_NESTED, e, entity, NULL, 0);
		if (!st) {
			memcpy(D.tparams, saved, sizeof(saved));
			D.ntparams = nsaved;
			D.ctx = ctx;
		}
	} else {
		if (look(0) == 'S' && look(1) == 't') {
			D.p += 2;
			int u = unqualified(st, -1);
			r = u < 0 ? -1 : mk(K_NESTED, text("std"), u, NULL, 0);
		} else if (look(0) == 'S') {
			r = substitution();
			is_sub = 1;
		} else
			r = unqualified(st, -1);
		if (r >= 0 && look(0) == 'I') {
			if (!is_sub)
				add_sub(r);
			int args = template_args(st != NULL);
			r = args < 0 ? -1 : mk(K_TMPL, r, args, NULL, 0);
			if (st)
				st->tmpl = 1;
		} else if (is_sub)
			r = -1;
	}
	D.depth--;
	return r;
}

static const struct {
	char c;
	const char *name;
} builtins[] = {{'v', "void"},        {'w', "wchar_t"},
                {'b', "bool"},        {'c', "char"},
                {'a', "signed char"}, {'h', "unsigned char"},
                {'s', "short"},       {'t', "unsigned short"},
                {'i', "int"},         {'j', "unsigned int"},
                {'l', "long"},        {'m', "unsigned long"},
                {'x', "long long"},   {'y', "unsigned long long"},
                {'n', "__int128"},    {'o', "unsigned __int128"},
                {'f', "float"},       {'d', "double"},
                {'e', "long double"}, {'g', "__float128"},
                {'z', "..."}},
  dbuiltins[] = {
      {'d', "decimal64"},      {'e', "decimal128"},       {'f', "decimal32"}, {'h', "half"},
      {'i', "char32_t"},       {'s', "char16_t"},         {'u', "char8_t"},   {'a', "auto"},
      {'c', "decltype(auto)"}, {'n', "decltype(nullptr)"}};

/* [quals] F [Y] <return> <parameters> [ref] E: one substitution with its
 * quals (a member function's type in a pointer to member). */
static int function_type(int quals)
{
	D.p++;
	eat('Y');
	int ret = type(), rref = 0;
	int ps = ret < 0 ? -1 : params(&rref);
	if (ps < 0 || !eat('E'))
		return -1;
	int r = mk(K_FUNC, ret, ps, NULL, 0);
	if (r >= 0) {
		D.nodes[r].rref = rref;
		D.nodes[r].quals = quals;
	}
	return r;
}

/* c++filt prints quals in the reverse of their mangled order: ours are
 * in the order of the ABI's r V K, and another order is left to it. */
static int qualified(void)
{
	int quals = 0, rank = 0;
	for (;; D.p++) {
		int c = look(0), r = c == 'r' ? 1 : c == 'V' ? 2 : c == 'K' ? 3 : 0;
		if (!r)
			break;
		if (r <= rank)
			return -1;
		rank = r;
		quals |= r == 1 ? 4 : r == 2 ? 2 : 1;
	}
	if (look(0) == 'F')
		return function_type(quals);
	int t = type();
	if (t < 0)
		return -1;
	/* const of a type that is const already (through T_) is one const */
	if (D.nodes[t].kind == K_QUAL) {
		quals |= D.nodes[t].quals;
		t = D.nodes[t].a;
	}
	int q = mk(K_QUAL, t, -1, NULL, 0);
	if (q >= 0)
		D.nodes[q].quals = quals;
	return q;
}

static int type_inner(void)
{
	int c = look(0), r;
	for (size_t i = 0; i < sizeof(builtins) / sizeof(builtins[0]); i++)
		if (c == builtins[i].c) {
			D.p++;
			return text(builtins[i].name);
		}
	switch (c) {
	case 'D':
		for (size_t i = 0; i < sizeof(dbuiltins) / sizeof(dbuiltins[0]); i++)
			if (look(1) == dbuiltins[i].c) {
				D.p += 2;
				return text(dbuiltins[i].name);
			}
		if (look(1) == 'p') {
			D.p += 2;
			r = type();
			r = r < 0 ? -1 : mk(K_EXPAND, r, -1, NULL, 0);
		} else if (look(1) == 'v' && look(2) >= '1' && look(2) <= '9') {
			D.p += 2;
			const char *n = D.p;
			number();
			int len = (int)(D.p - n);
			r = eat('_') ? type() : -1;
			r = tag(r, " __vector(", mk(K_NAME, -1, -1, n, len), ")");
		} else
			return -1;
		break;
	case 'u':
		D.p++;
		r = source_name();
		break;
	case 'r':
	case 'V':
	case 'K':
		r = qualified();
		break;
	case 'P':
	case 'R':
	case 'O':
		D.p++;
		r = type();
		r = r < 0 ? -1 : mk(c == 'P' ? K_PTR : K_REF, r, -1, NULL, 0);
		if (r >= 0)
			D.nodes[r].rref = c == 'O';
		break;
	case 'F':
		r = function_type(0);
		break;
	case 'A': {
		D.p++;
		const char *n = D.p;
		number();
		int len = (int)(D.p - n);
		r = eat('_') ? type() : -1;
		r = r < 0 ? -1 : mk(K_ARRAY, r, -1, n, len);
		break;
	}
	case 'M': {
		D.p++;
		int cls = type();
		int mem = cls < 0 ? -1 : type();
		r = mem < 0 ? -1 : mk(K_PMEM, cls, mem, NULL, 0);
		break;
	}
	case 'T':
		r = template_param();
		if (r >= 0 && look(0) == 'I') {
			add_sub(r);
			int args = template_args(0);
			r = args < 0 ? -1 : mk(K_TMPL, r, args, NULL, 0);
		}
		break;
	case 'S':
		if (look(1) != 't') {
			r = substitution();
			if (r < 0 || look(0) != 'I')
				return r; /* a substitution is not one again */
			int args = template_args(0);
			r = args < 0 ? -1 : mk(K_TMPL, r, args, NULL, 0);
			break;
		}
		r = name(NULL);
		break;
	case 'N':
	case 'Z':
		r = name(NULL);
		break;
	default:
		if (c < '0' || c > '9')
			return -1;
		r = name(NULL);
	}
	add_sub(r);
	return r;
}

static int type(void)
{
	if (++D.depth > MAX_DEPTH)
		return -1;
	int r = type_inner();
	D.depth--;
	return r;
}

static const char *const specials[][2] = {
    {"TV", "vtable for "},
    {"TT", "VTT for "},
    {"TI", "typeinfo for "},
    {"TS", "typeinfo name for "},
    {"TW", "TLS wrapper function for "},
    {"TH", "TLS init function for "},
    {"GV", "guard variable for "},
};

/* An offset of a thunk: h <number> _ or v <number> _ <number> _ */
static int call_offset(void)
{
	int c = look(0);
	D.p++;
	eat('n');
	if (number() < 0 || !eat('_'))
		return -1;
	if (c == 'v') {
		eat('n');
		if (number() < 0 || !eat('_'))
			return -1;
	}
	return c == 'h' || c == 'v' ? 0 : -1;
}

static int special(void)
{
	for (size_t i = 0; i < sizeof(specials) / sizeof(specials[0]); i++)
		if (look(0) == specials[i][0][0] && look(1) == specials[i][0][1]) {
			D.p += 2;
			int t = specials[i][0][0] == 'G' || specials[i][0][1] == 'W' ||
			                specials[i][0][1] == 'H'
			            ? name(NULL)
			            : type();
			return t < 0 ? -1 : wrap(specials[i][1], t, "");
		}
	if (look(0) == 'G' && look(1) == 'T' && look(2) == 't') {
		D.p += 3;
		return wrap("transaction clone for ", encoding(), "");
	}
	if (look(0) == 'T' && look(1) == 'C') {
		D.p += 2;
		int a = type();
		if (a < 0 || number() < 0 || !eat('_'))
			return -1;
		int b = type();
		return wrap("construction vtable for ", tag(b, "-in-", a, ""), "");
	}
	if (look(0) == 'T' && (look(1) == 'h' || look(1) == 'v' || look(1) == 'c')) {
		const char *what = look(1) == 'h'   ? "non-virtual thunk to "
		                   : look(1) == 'v' ? "virtual thunk to "
		                                    : "covariant return thunk to ";
		D.p++;
		if (call_offset() < 0)
			return -1;
		if (what[0] == 'c' && call_offset() < 0)
			return -1;
		int e = encoding();
		return e < 0 ? -1 : wrap(what, e, "");
	}
	return -1;
}

static int encoding(void)
{
	struct name_state st = {0, 0, 0, 0};
	if (++D.depth > MAX_DEPTH)
		return -1;
	if (look(0) == 'T' || look(0) == 'G') {
		int r = special();
		D.depth--;
		return r;
	}
	int n = name(&st), ret = -1;
	if (n < 0)
		return -1;
	D.depth--;
	if (!look(0) || look(0) == 'E' || look(0) == '.')
		return st.quals || st.rref ? -1 : n; /* a const datum: not ours to word */
	if (st.tmpl && !st.ctor_conv && (ret = type()) < 0)
		return -1;
	if (ret >= 0 && (!look(0) || look(0) == '.'))
		return -1; /* a return type and no parameters: c++filt gives up */
	int ps = params(NULL);
	int e = ps < 0 ? -1 : mk(K_ENC, n, ps, NULL, 0);
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
	while (e >= 0 && look(0) == '.' &&
	       (is_lower(look(1)) || is_digit(look(1)) || look(1) == '_')) {
		const char *s = D.p;
		D.p += 2;
		while (is_lower(look(0)) || is_digit(look(0)) || look(0) == '_')
			D.p++;
		while (look(0) == '.' && is_digit(look(1))) {
			D.p += 2;
			while (is_digit(look(0)))
				D.p++;
		}
		e = tag(e, " [clone ", mk(K_NAME, -1, -1, s, (int)(D.p - s)), "]");
	}
	return e;
}

int cxx_demangle(const char *mangled, char *out, size_t cap)
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
	int e = clones(encoding());
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
