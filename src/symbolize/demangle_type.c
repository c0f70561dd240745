/* The reader's types: builtins, qualifiers, pointers and references,
 * function, array, member and vector types, template parameters and
 * substitutions as types; template argument literals; the special names
 * (vtables, typeinfo, guard variables, thunks). */
#include <string.h>

#include "demangle_read.h"

static const struct {
	char c;
	const char *suffix;
} int_suffix[] = {{'i', ""}, {'j', "u"}, {'l', "l"}, {'m', "ul"}, {'x', "ll"}, {'y', "ull"}};

/* L <type> <value> E, or L _Z <encoding> E */
int dm_literal(void)
{
	D.p++;
	if (dm_look(0) == '_' && dm_look(1) == 'Z') {
		D.p += 2;
		int e = dm_encoding();
		return dm_eat('E') ? e : -1;
	}
	char t = (char)dm_look(0);
	int ty = dm_type();
	const char *v = D.p;
	while (dm_look(0) && dm_look(0) != 'E')
		D.p++;
	int len = (int)(D.p - v);
	if (ty < 0 || !dm_eat('E') || !len || (v[0] == 'n' && len == 1))
		return -1;
	if (t == 'b' && len == 1 && (v[0] == '0' || v[0] == '1'))
		return dm_text(v[0] == '1' ? "true" : "false");
	int neg = v[0] == 'n';
	int num = dm_mk(K_NAME, -1, -1, v + neg, len - neg);
	if (neg)
		num = dm_wrap("-", num, "");
	if (t == 'f' || t == 'd' || t == 'e' || t == 'g')
		num = dm_wrap("[", num, "]");
	for (size_t i = 0; i < sizeof(int_suffix) / sizeof(int_suffix[0]); i++)
		if (t == int_suffix[i].c)
			return dm_tag(num, int_suffix[i].suffix, -1, "");
	return dm_mk(K_CAST, ty, num, NULL, 0);
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
	dm_eat('Y');
	int ret = dm_type(), rref = 0;
	int ps = ret < 0 ? -1 : dm_params(&rref);
	if (ps < 0 || !dm_eat('E'))
		return -1;
	int r = dm_mk(K_FUNC, ret, ps, NULL, 0);
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
		int c = dm_look(0), r = c == 'r' ? 1 : c == 'V' ? 2 : c == 'K' ? 3 : 0;
		if (!r)
			break;
		if (r <= rank)
			return -1;
		rank = r;
		quals |= r == 1 ? 4 : r == 2 ? 2 : 1;
	}
	if (dm_look(0) == 'F')
		return function_type(quals);
	int t = dm_type();
	if (t < 0)
		return -1;
	/* const of a type that is const already (through T_) is one const */
	if (D.nodes[t].kind == K_QUAL) {
		quals |= D.nodes[t].quals;
		t = D.nodes[t].a;
	}
	int q = dm_mk(K_QUAL, t, -1, NULL, 0);
	if (q >= 0)
		D.nodes[q].quals = quals;
	return q;
}

static int type_inner(void)
{
	int c = dm_look(0), r;
	for (size_t i = 0; i < sizeof(builtins) / sizeof(builtins[0]); i++)
		if (c == builtins[i].c) {
			D.p++;
			return dm_text(builtins[i].name);
		}
	switch (c) {
	case 'D':
		for (size_t i = 0; i < sizeof(dbuiltins) / sizeof(dbuiltins[0]); i++)
			if (dm_look(1) == dbuiltins[i].c) {
				D.p += 2;
				return dm_text(dbuiltins[i].name);
			}
		if (dm_look(1) == 'p') {
			D.p += 2;
			r = dm_type();
			r = r < 0 ? -1 : dm_mk(K_EXPAND, r, -1, NULL, 0);
		} else if (dm_look(1) == 'v' && dm_look(2) >= '1' && dm_look(2) <= '9') {
			D.p += 2;
			const char *n = D.p;
			dm_number();
			int len = (int)(D.p - n);
			r = dm_eat('_') ? dm_type() : -1;
			r = dm_tag(r, " __vector(", dm_mk(K_NAME, -1, -1, n, len), ")");
		} else
			return -1;
		break;
	case 'u':
		D.p++;
		r = dm_source_name();
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
		r = dm_type();
		r = r < 0 ? -1 : dm_mk(c == 'P' ? K_PTR : K_REF, r, -1, NULL, 0);
		if (r >= 0)
			D.nodes[r].rref = c == 'O';
		break;
	case 'F':
		r = function_type(0);
		break;
	case 'A': {
		D.p++;
		const char *n = D.p;
		dm_number();
		int len = (int)(D.p - n);
		r = dm_eat('_') ? dm_type() : -1;
		r = r < 0 ? -1 : dm_mk(K_ARRAY, r, -1, n, len);
		break;
	}
	case 'M': {
		D.p++;
		int cls = dm_type();
		int mem = cls < 0 ? -1 : dm_type();
		r = mem < 0 ? -1 : dm_mk(K_PMEM, cls, mem, NULL, 0);
		break;
	}
	case 'T':
		r = dm_template_param();
		if (r >= 0 && dm_look(0) == 'I') {
			dm_add_sub(r);
			int args = dm_template_args(0);
			r = args < 0 ? -1 : dm_mk(K_TMPL, r, args, NULL, 0);
		}
		break;
	case 'S':
		if (dm_look(1) != 't') {
			r = dm_substitution();
			if (r < 0 || dm_look(0) != 'I')
				return r; /* a substitution is not one again */
			int args = dm_template_args(0);
			r = args < 0 ? -1 : dm_mk(K_TMPL, r, args, NULL, 0);
			break;
		}
		r = dm_name(NULL);
		break;
	case 'N':
	case 'Z':
		r = dm_name(NULL);
		break;
	default:
		if (c < '0' || c > '9')
			return -1;
		r = dm_name(NULL);
	}
	dm_add_sub(r);
	return r;
}

int dm_type(void)
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
	int c = dm_look(0);
	D.p++;
	dm_eat('n');
	if (dm_number() < 0 || !dm_eat('_'))
		return -1;
	if (c == 'v') {
		dm_eat('n');
		if (dm_number() < 0 || !dm_eat('_'))
			return -1;
	}
	return c == 'h' || c == 'v' ? 0 : -1;
}

int dm_special(void)
{
	for (size_t i = 0; i < sizeof(specials) / sizeof(specials[0]); i++)
		if (dm_look(0) == specials[i][0][0] && dm_look(1) == specials[i][0][1]) {
			D.p += 2;
			int t = specials[i][0][0] == 'G' || specials[i][0][1] == 'W' ||
			                specials[i][0][1] == 'H'
			            ? dm_name(NULL)
			            : dm_type();
			return t < 0 ? -1 : dm_wrap(specials[i][1], t, "");
		}
	if (dm_look(0) == 'G' && dm_look(1) == 'T' && dm_look(2) == 't') {
		D.p += 3;
		return dm_wrap("transaction clone for ", dm_encoding(), "");
	}
	if (dm_look(0) == 'T' && dm_look(1) == 'C') {
		D.p += 2;
		int a = dm_type();
		if (a < 0 || dm_number() < 0 || !dm_eat('_'))
			return -1;
		int b = dm_type();
		return dm_wrap("construction vtable for ", dm_tag(b, "-in-", a, ""), "");
	}
	if (dm_look(0) == 'T' && (dm_look(1) == 'h' || dm_look(1) == 'v' || dm_look(1) == 'c')) {
		const char *what = dm_look(1) == 'h'   ? "non-virtual thunk to "
		                   : dm_look(1) == 'v' ? "virtual thunk to "
		                                       : "covariant return thunk to ";
		D.p++;
		if (call_offset() < 0)
			return -1;
		if (what[0] == 'c' && call_offset() < 0)
			return -1;
		int e = dm_encoding();
		return e < 0 ? -1 : dm_wrap(what, e, "");
	}
	return -1;
}
