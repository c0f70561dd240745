#define _GNU_SOURCE
#include "dwarf_info.h"

#include <string.h>

#include "../base/compiler.h"
#include "../config/log.h"

#include "dwarf_form.h"
#include "dwarf_info_impl.h"
#include "dwarf_line.h"

/* Abbreviation codes of the current unit, by code: where each one's
 * declaration starts. Codes are small and dense in what gcc and clang
 * emit; a larger one is looked for in the table itself. Under the report
 * lock. */
#define ABBREV_CACHED 1024
static struct {
	const unsigned char *sec;
	uint64_t off;
	uint32_t at[ABBREV_CACHED]; /* 1 + offset in .debug_abbrev, 0: none */
} abbrevs;

static void cache_abbrevs(const struct secs *s, uint64_t off)
{
	if (abbrevs.sec == s->d.abbrev.p && abbrevs.off == off)
		return;
	rt_memset(abbrevs.at, 0, sizeof(abbrevs.at));
	abbrevs.sec = s->d.abbrev.p;
	abbrevs.off = off;
	/* A lazily inflated section, inflated on until the unit's table
	 * ends in what is there. */
	for (size_t want = off + 4096;; want = 2 * s->d.abbrev.n) {
		if (want < off || dwarf_cover(&s->d.abbrev, want) || off >= s->d.abbrev.n ||
		    dwarf_size(&s->d.abbrev) > UINT32_MAX - 1)
			return;
		struct dw_rd r = {s->d.abbrev.p + off, s->d.abbrev.p + s->d.abbrev.n, 0};
		while (!r.bad) {
			uint32_t at = (uint32_t)(r.p - s->d.abbrev.p);
			uint64_t code = dw_uleb(&r);
			if (!code && !r.bad)
				return;
			if (r.bad)
				break;
			if (code < ABBREV_CACHED && !abbrevs.at[code])
				abbrevs.at[code] = at + 1;
			dw_abbrev_skip(&r);
		}
		if (s->d.abbrev.n >= dwarf_size(&s->d.abbrev))
			return;
	}
}

/* The declaration of code in the unit's table: r at its tag. */
static int abbrev(const struct secs *s, const struct unit *cu, uint64_t code, struct dw_rd *r)
{
	const struct dw_sec *a = &s->d.abbrev;
	cache_abbrevs(s, cu->abbrev_off);
	if (code < ABBREV_CACHED && abbrevs.at[code]) {
		*r = (struct dw_rd){a->p + abbrevs.at[code] - 1, a->p + a->n, 0};
		dw_uleb(r);
		return r->bad ? -1 : 0;
	}
	return dw_abbrev_find(a, cu->abbrev_off, code, r);
}

static int is_ref(uint64_t form)
{
	return form == DW_FORM_ref1 || form == DW_FORM_ref2 || form == DW_FORM_ref4 ||
	       form == DW_FORM_ref8 || form == DW_FORM_ref_udata || form == DW_FORM_ref_addr;
}

/* A reference as an offset in .debug_info; NONE for one into another
 * file (dwz's DW_FORM_GNU_ref_alt) or a type unit. */
static uint64_t ref_of(const struct unit *cu, uint64_t form, uint64_t v)
{
	if (form == DW_FORM_ref_addr)
		return v;
	if (v > UINT64_MAX - cu->start)
		return NONE;
	return cu->start + v;
}

/* One entry at *r (its abbreviation code read: code). 0, or -1 when the
 * unit cannot be read on. */
static int read_die(const struct secs *s, const struct unit *cu, struct dw_rd *r, uint64_t code,
                    struct die *e)
{
	struct dw_rd a;
	rt_memset(e, 0, sizeof(*e));
	if (abbrev(s, cu, code, &a))
		return -1;
	e->tag = dw_uleb(&a);
	e->children = (int)dw_n(&a, 1);
	uint64_t at, form;
	struct dw_val v;
	int got;
	while ((got = dw_attr_next(&a, r, &cu->u, &s->d, &at, &form, &v)) > 0) {
		switch (at) {
		case AT_sibling:
			if (is_ref(form))
				e->sibling = ref_of(cu, form, v.u);
			break;
		case AT_name:
			e->name = v;
			e->name_form = form;
			break;
		case AT_linkage_name:
		case AT_MIPS_linkage_name:
			e->linkage = v;
			e->linkage_form = form;
			break;
		case AT_low_pc:
			e->low = v.u;
			e->has_low = 1;
			if (form != DW_FORM_addr) /* addrx forms: an index */
				e->has_low = 2;
			break;
		case AT_high_pc:
			e->high = v.u;
			e->has_high = 1;
			e->high_is_size = form != DW_FORM_addr;
			if (form >= DW_FORM_addrx1 && form <= DW_FORM_addrx4)
				e->has_high = 0; /* never emitted: not followed */
			break;
		case AT_ranges:
			e->ranges = v.u;
			e->has_ranges = 1;
			e->ranges_indexed = form == DW_FORM_rnglistx;
			break;
		case AT_abstract_origin:
			if (is_ref(form))
				e->origin = ref_of(cu, form, v.u);
			break;
		case AT_specification:
			if (is_ref(form))
				e->spec = ref_of(cu, form, v.u);
			break;
		case AT_call_file:
			e->call_file = v.u;
			break;
		case AT_decl_file:
			e->decl_file = v.u;
			break;
		case AT_call_line:
			e->call_line = v.u;
			break;
		}
	}
	return got;
}

/* The unit whose header starts at off in .debug_info, with its root's
 * bases; r at its root's children. -1 when unreadable, 1 for a unit
 * without code (a type unit), 0 otherwise. */
static int open_unit(const struct secs *s, uint64_t off, struct unit *cu, struct die *root,
                     struct dw_rd *r)
{
	const struct dw_sec *info = &s->d.info;
	rt_memset(cu, 0, sizeof(*cu));
	if (dwarf_cover_unit(info, off) || off >= info->n)
		return -1;
	*r = (struct dw_rd){info->p + off, info->p + info->n, 0};
	uint64_t len = dw_n(r, 4);
	cu->u.offset_size = 4;
	if (len == 0xffffffff) {
		len = dw_n(r, 8);
		cu->u.offset_size = 8;
	}
	if (r->bad || len > (uint64_t)(r->end - r->p))
		return -1;
	cu->start = off;
	r->end = r->p + len;
	cu->end = (uint64_t)(r->end - info->p);
	cu->u.version = (unsigned)dw_n(r, 2);
	if (cu->u.version < 2 || cu->u.version > 5)
		return -1;
	if (cu->u.version >= 5) {
		unsigned type = (unsigned)dw_n(r, 1);
		cu->u.addr_size = (unsigned)dw_n(r, 1);
		cu->abbrev_off = dw_n(r, cu->u.offset_size);
		if (type == DW_UT_skeleton)
			dw_n(r, 8);
		else if (type != DW_UT_compile && type != DW_UT_partial)
			return r->bad ? -1 : 1;
	} else {
		cu->abbrev_off = dw_n(r, cu->u.offset_size);
		cu->u.addr_size = (unsigned)dw_n(r, 1);
	}
	if (r->bad || (cu->u.addr_size != 4 && cu->u.addr_size != 8))
		return -1;
	cu->dies = (uint64_t)(r->p - info->p);
	/* The root's attributes, for the bases its indexed forms need
	 * before any of them is resolved. */
	struct dw_rd a;
	uint64_t code = dw_uleb(r);
	if (r->bad || !code || abbrev(s, cu, code, &a))
		return -1;
	struct dw_rd save = *r;
	rt_memset(root, 0, sizeof(*root));
	root->tag = dw_uleb(&a);
	dw_n(&a, 1);
	uint64_t at, form;
	struct dw_val v;
	int got;
	while ((got = dw_attr_next(&a, r, &cu->u, &s->d, &at, &form, &v)) > 0) {
		if (at == AT_str_offsets_base) {
			cu->str_base = v.u;
			cu->has_str_base = 1;
		} else if (at == AT_addr_base || at == AT_GNU_addr_base) {
			cu->addr_base = v.u;
			cu->has_addr_base = 1;
		} else if (at == AT_rnglists_base) {
			cu->rng_base = v.u;
			cu->has_rng_base = 1;
		} else if (at == DW_AT_stmt_list) {
			cu->stmt = v.u;
			cu->has_stmt = 1;
		} else if (at == DW_AT_comp_dir) {
			cu->comp = dw_val_str(&v);
		}
	}
	if (got < 0)
		return -1;
	/* Once more, now that the bases are known. */
	*r = save;
	if (read_die(s, cu, r, code, root))
		return -1;
	if (root->has_low == 1)
		cu->low = root->low;
	else if (root->has_low == 2)
		dwi_addr_at(s, cu, root->low, &cu->low);
	return 0;
}

/* The name an entry's function has, through the declarations it refers
 * to: the first linkage name on the way, else the first name, as llvm's
 * symbolizer takes them. */
static void function_name(const struct secs *s, const struct unit *from, uint64_t off, char *buf,
                          size_t cap, char *decl, size_t dcap)
{
	decl[0] = 0;
	const char *linkage = NULL, *name = NULL;
	struct unit other;
	const struct unit *cu = from;
	buf[0] = 0;
	for (int hop = 0; hop < 6 && off != NONE && !linkage; hop++) {
		struct die e, root;
		struct dw_rd r;
		if (off < cu->dies || off >= cu->end) {
			/* another unit's entry (gcc -flto refers across units):
			 * its header found by walking the headers */
			uint64_t at = 0;
			cu = NULL;
			while (at < dwarf_size(&s->d.info)) {
				int k = open_unit(s, at, &other, &root, &r);
				if (k < 0)
					break;
				if (!k && off >= other.dies && off < other.end) {
					cu = &other;
					break;
				}
				at = other.end;
			}
			if (!cu)
				break;
		}
		r = (struct dw_rd){s->d.info.p + off, s->d.info.p + cu->end, 0};
		uint64_t code = dw_uleb(&r);
		if (r.bad || !code || read_die(s, cu, &r, code, &e))
			break;
		/* the file it is declared in: a C library header's
		 * function is told apart by it */
		if (!decl[0] && e.decl_file && cu->has_stmt)
			dwarf_file_name(&s->d, cu->stmt, cu->comp, e.decl_file, decl, dcap);
		linkage = dwi_string_of(s, cu, e.linkage_form, &e.linkage);
		if (!name)
			name = dwi_string_of(s, cu, e.name_form, &e.name);
		off = e.origin != NONE ? e.origin : e.spec;
	}
	if (linkage || name)
		fmt_buf(buf, cap, "%s", linkage ? linkage : name);
}

/* One frame of the chain being followed down the unit's tree. */
struct link {
	int depth;
	uint64_t off, origin, lo, hi, call_file, call_line;
	int inlined;
};

/* The chain of functions holding addr in the unit (its root read, r at
 * the root's first child): the outermost function, then each inlined one.
 * The number of links, or -1. */
static int chain_in_unit(const struct secs *s, const struct unit *cu, struct dw_rd *r,
                         uint64_t addr, struct link *chain, int max)
{
	int depth = 1, n = 0;
	while (r->p < r->end && !r->bad) {
		uint64_t off = (uint64_t)(r->p - s->d.info.p);
		uint64_t code = dw_uleb(r);
		if (r->bad)
			return -1;
		if (!code) {
			if (--depth <= 0)
				break;
			continue;
		}
		struct die e;
		if (read_die(s, cu, r, code, &e))
			return -1;
		/* Past the innermost entry that held it: code nests, so
		 * nothing further in the unit holds it deeper. */
		if (n && chain[n - 1].depth >= depth)
			break;
		uint64_t lo, hi;
		int fn = e.tag == TAG_subprogram || e.tag == TAG_inlined_subroutine;
		int in = (fn || e.tag == TAG_lexical_block) && dwi_holds(s, cu, &e, addr, &lo, &hi);
		if (fn && in && n < max) {
			chain[n++] = (struct link){
			    depth,       off,         e.origin != NONE ? e.origin : off, lo, hi,
			    e.call_file, e.call_line, e.tag == TAG_inlined_subroutine};
		} else if (fn && !in && e.children && e.sibling > off && e.sibling < cu->end) {
			/* a function elsewhere: past its children at once */
			r->p = s->d.info.p + e.sibling;
			continue;
		}
		if (e.children && ++depth > DEPTH_MAX)
			return -1;
	}
	return n;
}

int dwarf_inlines(const unsigned char *elf, size_t size, uint64_t addr, struct dwarf_inline *out,
                  int max, char *outer, size_t ocap)
{
	if (outer && ocap)
		outer[0] = 0;
	static struct secs s; /* callers hold the report lock */
	static const struct {
		const char *name;
		size_t off;
	} want[] = {
	    {".debug_info", offsetof(struct secs, d.info)},
	    {".debug_abbrev", offsetof(struct secs, d.abbrev)},
	    {".debug_line", offsetof(struct secs, d.line)},
	    {".debug_str", offsetof(struct secs, d.str)},
	    {".debug_line_str", offsetof(struct secs, d.line_str)},
	    {".debug_addr", offsetof(struct secs, addr)},
	    {".debug_str_offsets", offsetof(struct secs, str_offsets)},
	    {".debug_ranges", offsetof(struct secs, ranges)},
	    {".debug_rnglists", offsetof(struct secs, rnglists)},
	};
	rt_memset(&s, 0, sizeof(s));
	/* Each inflated only as far as the lookup reads it. */
	for (size_t k = 0; k < sizeof(want) / sizeof(want[0]); k++)
		dwarf_section(elf, size, want[k].name, (struct dw_sec *)((char *)&s + want[k].off),
		              1);
	if (!s.d.info.p || !s.d.abbrev.p)
		return 0;
	abbrevs.sec = NULL;
	uint64_t off = 0;
	while (off < dwarf_size(&s.d.info)) {
		struct unit cu;
		struct die root;
		struct dw_rd r;
		int k = open_unit(&s, off, &cu, &root, &r);
		if (k < 0)
			return -1;
		off = cu.end;
		uint64_t lo, hi;
		/* a unit that names its code and holds not addr is skipped */
		if (k || (root.tag != TAG_compile_unit && root.tag != TAG_partial_unit) ||
		    !root.children ||
		    ((root.has_ranges || (root.has_low && root.has_high)) &&
		     !dwi_holds(&s, &cu, &root, addr, &lo, &hi)))
			continue;
		static struct link chain[DEPTH_MAX]; /* one a level at most */
		int n = chain_in_unit(&s, &cu, &r, addr, chain, DEPTH_MAX);
		if (n < 0)
			return -1;
		if (!n)
			continue;
		if (outer && ocap && !chain[0].inlined) {
			char decl[8]; /* not wanted: a long path is cut short */
			function_name(&s, &cu, chain[0].origin, outer, ocap, decl, sizeof(decl));
		}
		/* innermost first: each inlined link, named by its origin, and
		 * the place of its call, which is in the link before it */
		int got = 0;
		for (int i = n - 1; i >= 0 && got < max; i--) {
			if (!chain[i].inlined)
				break;
			struct dwarf_inline *o = &out[got++];
			function_name(&s, &cu, chain[i].origin, o->name, sizeof(o->name), o->decl,
			              sizeof(o->decl));
			o->lo = chain[i].lo;
			o->hi = chain[i].hi;
			o->call[0] = 0;
			if (cu.has_stmt && chain[i].call_line &&
			    dwarf_file_name(&s.d, cu.stmt, cu.comp, chain[i].call_file, o->call,
			                    sizeof(o->call))) {
				size_t len = strlen(o->call);
				if (len + 1 < sizeof(o->call))
					fmt_buf(o->call + len, sizeof(o->call) - len, ":%lu",
					        (unsigned long)chain[i].call_line);
			}
		}
		return got;
	}
	return 0;
}
