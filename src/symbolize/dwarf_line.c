#define _GNU_SOURCE
#include "dwarf_line.h"

#include <string.h>

#include "../base/compiler.h"
#include "../config/log.h"

#include "dwarf_form.h"

/* The part of a line program's header that the program and the names
 * need. Directory and file tables are not copied: they are walked again for
 * the few rows a stack matches. */
struct lhdr {
	struct dw_unit u;
	unsigned min_inst, line_range, opcode_base;
	int line_base;
	const unsigned char *std_len;   /* opcode_base - 1 operand counts */
	struct dw_rd dirs, files;       /* from the first entry to the header's end */
	struct dw_rd dir_fmt, file_fmt; /* DWARF 5: (content, form) pairs */
	unsigned ndir_fmt, nfile_fmt;
	uint64_t ndirs, nfiles;
	struct dw_rd prog;
	const char *comp_dir;
};

/* Past the n entries of a DWARF 5 table, keeping the path and directory
 * index of entry want (when want < n). */
static void v5_entries(const struct lhdr *h, const struct dw_secs *d, struct dw_rd *r,
                       struct dw_rd fmt, unsigned nfmt, uint64_t n, uint64_t want,
                       struct dw_val *path, uint64_t *dir)
{
	for (uint64_t i = 0; i < n && !r->bad; i++) {
		const unsigned char *start = r->p;
		struct dw_rd f = fmt;
		for (unsigned k = 0; k < nfmt && !r->bad; k++) {
			uint64_t type = dw_uleb(&f), form = dw_uleb(&f);
			struct dw_val v;
			if (f.bad || dw_form(r, form, &h->u, d, 0, &v)) {
				r->bad = 1;
				break;
			}
			if (i != want)
				continue;
			if (type == DW_LNCT_path && path)
				*path = (struct dw_val){v.u, dw_val_str(&v), NULL};
			else if (type == DW_LNCT_directory_index && dir)
				*dir = v.u;
		}
		if (i == want)
			return;
		if (r->p == start) /* else a count of 2^64 empty entries never ends */
			r->bad = 1;
	}
}

static int parse_header(struct lhdr *h, const struct dw_secs *d, uint64_t off, uint64_t *next)
{
	/* no .debug_line: dwarf_info.c asks for a unit's file names too */
	if (!d->line.p || dwarf_cover_unit(&d->line, off) || off >= d->line.n)
		return -1;
	struct dw_rd r = {d->line.p + off, d->line.p + d->line.n, 0};
	uint64_t len = dw_n(&r, 4);
	h->u.offset_size = 4;
	if (len == 0xffffffff) {
		len = dw_n(&r, 8);
		h->u.offset_size = 8;
	}
	if (r.bad || len > (uint64_t)(r.end - r.p))
		return -1;
	r.end = r.p + len;
	if (next)
		*next = (uint64_t)(r.end - d->line.p);
	h->u.version = (unsigned)dw_n(&r, 2);
	if (h->u.version < 2 || h->u.version > 5)
		return -1;
	h->u.addr_size = sizeof(void *);
	if (h->u.version >= 5) {
		h->u.addr_size = (unsigned)dw_n(&r, 1);
		dw_n(&r, 1); /* segment selector size */
	}
	uint64_t hlen = dw_n(&r, h->u.offset_size);
	if (r.bad || hlen > (uint64_t)(r.end - r.p))
		return -1;
	h->prog = (struct dw_rd){r.p + hlen, r.end, 0};
	r.end = r.p + hlen;
	h->min_inst = (unsigned)dw_n(&r, 1);
	/* VLIW op indices never occur on x86-64 or aarch64 */
	if (h->u.version >= 4 && dw_n(&r, 1) != 1)
		return -1;
	dw_n(&r, 1); /* default_is_stmt: every row counts for a lookup */
	h->line_base = (int8_t)dw_n(&r, 1);
	h->line_range = (unsigned)dw_n(&r, 1);
	h->opcode_base = (unsigned)dw_n(&r, 1);
	if (r.bad || !h->line_range || !h->opcode_base ||
	    (h->u.addr_size != 4 && h->u.addr_size != 8))
		return -1;
	h->std_len = r.p;
	dw_skip(&r, h->opcode_base - 1);
	if (h->u.version < 5) {
		const char *dir;
		h->dirs = r;
		while ((dir = dw_str(&r)) && *dir)
			;
		h->files = r;
		return r.bad ? -1 : 0;
	}
	h->ndir_fmt = (unsigned)dw_n(&r, 1);
	h->dir_fmt = r;
	for (unsigned k = 0; k < 2 * h->ndir_fmt; k++)
		dw_uleb(&r);
	h->ndirs = dw_uleb(&r);
	h->dirs = r;
	v5_entries(h, d, &r, h->dir_fmt, h->ndir_fmt, h->ndirs, UINT64_MAX, NULL, NULL);
	h->nfile_fmt = (unsigned)dw_n(&r, 1);
	h->file_fmt = r;
	for (unsigned k = 0; k < 2 * h->nfile_fmt; k++)
		dw_uleb(&r);
	h->nfiles = dw_uleb(&r);
	h->files = r;
	return r.bad ? -1 : 0;
}

/* llvm's path append: one '/' between non-empty parts. */
static void append(char *buf, size_t cap, size_t *k, const char *part)
{
	if (!part || !*part)
		return;
	if (*k && buf[*k - 1] == '/')
		while (*part == '/')
			part++;
	else if (*k && *part != '/' && *k + 1 < cap)
		buf[(*k)++] = '/';
	while (*part && *k + 1 < cap)
		buf[(*k)++] = *part++;
	buf[*k] = 0;
}

/* The name of file idx as llvm-symbolizer prints it: an absolute name as
 * it is, else its directory, itself under the compilation directory when
 * relative: even DWARF 5's directory 0, which libc's debug file has as
 * "./csu" and llvm shows as "./csu/./csu/x.c". Without the unit, directory
 * 0 stands in for the compilation directory. 0 when idx names no file. */
static int file_name(const struct lhdr *h, const struct dw_secs *d, uint64_t idx, char *buf,
                     size_t cap)
{
	struct dw_val name = {0, NULL, NULL}, dname = {0, NULL, NULL};
	uint64_t dir = 0;
	const char *comp = h->comp_dir;
	struct dw_rd r = h->files;
	if (h->u.version >= 5) {
		if (idx >= h->nfiles)
			return 0;
		v5_entries(h, d, &r, h->file_fmt, h->nfile_fmt, h->nfiles, idx, &name, &dir);
		if (r.bad || !name.s)
			return 0;
		if (name.s[0] != '/' && dir < h->ndirs) {
			r = h->dirs;
			v5_entries(h, d, &r, h->dir_fmt, h->ndir_fmt, h->ndirs, dir, &dname, NULL);
			if (r.bad)
				return 0;
		}
		if (!comp) {
			struct dw_rd r0 = h->dirs;
			struct dw_val d0 = {0, NULL, NULL};
			if (h->ndirs)
				v5_entries(h, d, &r0, h->dir_fmt, h->ndir_fmt, h->ndirs, 0, &d0,
				           NULL);
			comp = d0.s;
		}
	} else {
		if (idx == 0)
			return 0;
		for (uint64_t i = 1; !r.bad; i++) {
			name.s = dw_str(&r);
			if (!name.s || !*name.s)
				return 0; /* the table's end */
			dir = dw_uleb(&r);
			dw_uleb(&r);
			dw_uleb(&r);
			if (i == idx)
				break;
		}
		if (r.bad)
			return 0;
		r = h->dirs;
		for (uint64_t i = 1; name.s[0] != '/' && i <= dir && !r.bad; i++) {
			const char *s = dw_str(&r);
			if (!s || !*s)
				break;
			if (i == dir)
				dname.s = s;
		}
	}
	size_t k = 0;
	buf[0] = 0;
	if (name.s[0] != '/') {
		if (!(dname.s && dname.s[0] == '/'))
			append(buf, cap, &k, comp);
		append(buf, cap, &k, dname.s);
	}
	append(buf, cap, &k, name.s);
	return 1;
}

/* The addresses asked for, sorted, so that each row interval costs one
 * binary search. */
struct query {
	uint64_t addr[64];
	int idx[64], done[64];
	int n, left;
	char *out;
	size_t stride;
};

/* Rows [lo, hi) in one sequence had file and line: answer what they cover. */
static void cover(struct query *q, const struct lhdr *h, const struct dw_secs *d, uint64_t lo,
                  uint64_t hi, uint64_t file, uint64_t line)
{
	int a = 0, b = q->n;
	if (lo >= hi)
		return;
	while (a < b) {
		int mid = (a + b) / 2;
		if (q->addr[mid] < lo)
			a = mid + 1;
		else
			b = mid;
	}
	for (; a < q->n && q->addr[a] < hi; a++) {
		if (q->done[a])
			continue;
		q->done[a] = 1;
		q->left--;
		char *o = q->out + (size_t)q->idx[a] * q->stride;
		if (!line || !file_name(h, d, file, o, q->stride)) {
			o[0] = 0;
			continue;
		}
		size_t k = strlen(o);
		if (k + 1 < q->stride)
			fmt_buf(o + k, q->stride - k, ":%lu", (unsigned long)line);
	}
}

/* Run one line program, answering the addresses its rows cover. A row
 * covers from its address up to the next row's within one sequence, so the
 * last of several rows at one address is the one that answers. */
static int run_program(const struct lhdr *h, const struct dw_secs *d, struct query *q)
{
	struct dw_rd r = h->prog;
	uint64_t addr = 0, file = 1, line = 1;
	uint64_t paddr = 0, pfile = 0, pline = 0;
	int have_prev = 0;
	while (r.p < r.end && !r.bad && q->left) {
		unsigned op = (unsigned)dw_n(&r, 1);
		int row = 0, end_seq = 0;
		if (op >= h->opcode_base) {
			unsigned adj = op - h->opcode_base;
			addr += (uint64_t)(adj / h->line_range) * h->min_inst;
			line += (uint64_t)(int64_t)(h->line_base + (int)(adj % h->line_range));
			row = 1;
		} else if (op == 0) {
			uint64_t len = dw_uleb(&r);
			if (r.bad || !len || len > (uint64_t)(r.end - r.p))
				return -1;
			struct dw_rd e = {r.p, r.p + len, 0};
			r.p += len;
			unsigned sub = (unsigned)dw_n(&e, 1);
			if (sub == 1) { /* DW_LNE_end_sequence */
				row = end_seq = 1;
			} else if (sub == 2) { /* DW_LNE_set_address */
				if (len - 1 > 8)
					return -1;
				addr = dw_n(&e, (unsigned)(len - 1));
			}
			/* define_file and set_discriminator change no answer */
		} else {
			switch (op) {
			case 1: /* DW_LNS_copy */
				row = 1;
				break;
			case 2: /* DW_LNS_advance_pc */
				addr += dw_uleb(&r) * h->min_inst;
				break;
			case 3: /* DW_LNS_advance_line */
				line += (uint64_t)dw_sleb(&r);
				break;
			case 4: /* DW_LNS_set_file */
				file = dw_uleb(&r);
				break;
			case 8: /* DW_LNS_const_add_pc */
				addr += (uint64_t)((255 - h->opcode_base) / h->line_range) *
				        h->min_inst;
				break;
			case 9: /* DW_LNS_fixed_advance_pc */
				addr += dw_n(&r, 2);
				break;
			default: /* column, stmt, block, prologue, epilogue, isa, or unknown */
				for (unsigned k = 0; k < h->std_len[op - 1]; k++)
					dw_uleb(&r);
			}
		}
		if (!row)
			continue;
		if (have_prev)
			cover(q, h, d, paddr, addr, pfile, pline & 0xffffffff);
		paddr = addr;
		pfile = file;
		pline = line;
		have_prev = !end_seq;
		if (end_seq) {
			addr = 0;
			file = line = 1;
		}
	}
	return r.bad ? -1 : 0;
}

/* Find abbreviation code in the table at off; r is left at its
 * attribute specifications. */
static int find_abbrev(const struct dw_secs *d, uint64_t off, uint64_t code, struct dw_rd *r)
{
	if (dw_abbrev_find(&d->abbrev, off, code, r))
		return -1;
	dw_uleb(r); /* tag */
	dw_n(r, 1); /* children */
	return r->bad ? -1 : 0;
}

/* A unit's line table offset and compilation directory, from its first
 * entry. 1 when it has a line table, 0 when it has none, -1 when it cannot
 * be read. */
static int unit_root(const struct dw_secs *d, struct dw_rd *r, const struct dw_unit *u,
                     uint64_t abbrev_off, uint64_t *stmt, const char **comp)
{
	struct dw_rd a;
	int found = 0;
	uint64_t code = dw_uleb(r);
	if (r->bad || !code || find_abbrev(d, abbrev_off, code, &a))
		return -1;
	uint64_t at, form;
	struct dw_val v;
	int got;
	while ((got = dw_attr_next(&a, r, u, d, &at, &form, &v)) > 0) {
		if (at == DW_AT_stmt_list) {
			*stmt = v.u;
			found = 1;
		} else if (at == DW_AT_comp_dir) {
			*comp = dw_val_str(&v); /* NULL for strx forms: DWARF 5 has directory 0 */
		}
	}
	return got < 0 ? -1 : found;
}

/* Every compilation unit's line program, until every address is answered. */
static int walk_units(const struct dw_secs *d, struct query *q)
{
	struct dw_rd r = {d->info.p, d->info.p + d->info.n, 0};
	while (r.p < r.end && q->left) {
		struct dw_unit u;
		uint64_t len = dw_n(&r, 4), abbrev_off, stmt = 0;
		u.offset_size = 4;
		if (len == 0xffffffff) {
			len = dw_n(&r, 8);
			u.offset_size = 8;
		}
		if (r.bad || len > (uint64_t)(r.end - r.p))
			return -1;
		struct dw_rd cu = {r.p, r.p + len, 0};
		r.p += len;
		u.version = (unsigned)dw_n(&cu, 2);
		if (u.version < 2 || u.version > 5)
			return -1;
		if (u.version >= 5) {
			unsigned type = (unsigned)dw_n(&cu, 1);
			u.addr_size = (unsigned)dw_n(&cu, 1);
			abbrev_off = dw_n(&cu, u.offset_size);
			if (type == DW_UT_skeleton)
				dw_n(&cu, 8);
			else if (type != DW_UT_compile && type != DW_UT_partial)
				continue; /* type units share their CU's lines */
		} else {
			abbrev_off = dw_n(&cu, u.offset_size);
			u.addr_size = (unsigned)dw_n(&cu, 1);
		}
		if (u.addr_size != 4 && u.addr_size != 8)
			return -1;
		const char *comp = NULL;
		int has = unit_root(d, &cu, &u, abbrev_off, &stmt, &comp);
		if (has < 0)
			return -1;
		if (!has)
			continue;
		struct lhdr h;
		if (parse_header(&h, d, stmt, NULL))
			return -1;
		h.comp_dir = comp;
		if (run_program(&h, d, q))
			return -1;
	}
	return 0;
}

/* Without .debug_info (compressed, like libc's in Debian's debug files),
 * the line programs one after the other: DWARF 5 names its compilation
 * directory in the table itself, older versions cannot be answered. */
static int walk_tables(const struct dw_secs *d, struct query *q)
{
	uint64_t off = 0;
	while (off < dwarf_size(&d->line) && q->left) {
		struct lhdr h;
		if (parse_header(&h, d, off, &off) || h.u.version < 5)
			return -1;
		h.comp_dir = NULL;
		if (run_program(&h, d, q))
			return -1;
	}
	return 0;
}

/* The debug sections of an ELF image; -1 when the image is not a native
 * ELF file or has no line tables that can be read. */
static int find_sections(const unsigned char *elf, size_t size, struct dw_secs *d)
{
	static const struct {
		const char *name;
		size_t off;
	} want[] = {
	    {".debug_line", offsetof(struct dw_secs, line)},
	    {".debug_info", offsetof(struct dw_secs, info)},
	    {".debug_abbrev", offsetof(struct dw_secs, abbrev)},
	    {".debug_str", offsetof(struct dw_secs, str)},
	    {".debug_line_str", offsetof(struct dw_secs, line_str)},
	};
	rt_memset(d, 0, sizeof(*d));
	for (size_t k = 0; k < sizeof(want) / sizeof(want[0]); k++) {
		struct dw_sec *s = (struct dw_sec *)((char *)d + want[k].off);
		/* the units are only needed for DWARF 4's compilation
		 * directory: not worth inflating */
		dwarf_section(elf, size, want[k].name, s, s != &d->info && s != &d->abbrev);
	}
	if (!d->abbrev.p)
		d->info.p = NULL;
	return d->line.p ? 0 : -1;
}

int dwarf_lines(const unsigned char *elf, size_t size, const uint64_t *addrs, int n, char *out,
                size_t stride)
{
	static struct query q; /* callers hold the report lock */
	struct dw_secs d;
	if (n > 64)
		n = 64;
	if (!stride || find_sections(elf, size, &d))
		return -1;
	q.n = q.left = 0;
	q.out = out;
	q.stride = stride;
	for (int i = 0; i < n; i++) {
		int j = q.n++;
		out[(size_t)i * stride] = 0;
		while (j > 0 && q.addr[j - 1] > addrs[i]) {
			q.addr[j] = q.addr[j - 1];
			q.idx[j] = q.idx[j - 1];
			j--;
		}
		q.addr[j] = addrs[i];
		q.idx[j] = i;
	}
	for (int i = 0; i < q.n; i++)
		q.done[i] = 0;
	q.left = q.n;
	return d.info.p ? walk_units(&d, &q) : walk_tables(&d, &q);
}

/* For dwarf_info.c: the name of a file of a unit's line table. */

int dwarf_file_name(const struct dw_secs *d, uint64_t stmt, const char *comp_dir, uint64_t idx,
                    char *buf, size_t cap)
{
	struct lhdr h;
	if (!cap || parse_header(&h, d, stmt, NULL))
		return 0;
	h.comp_dir = comp_dir;
	return file_name(&h, d, idx, buf, cap);
}
