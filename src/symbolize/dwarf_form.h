/* Reading DWARF sections mapped from an ELF file: a bounded cursor and the
 * attribute forms, for the line-table reader. Nothing here allocates or
 * reads past the section it is given. */
#ifndef UKASAN_SYMBOLIZE_DWARF_FORM_H
#define UKASAN_SYMBOLIZE_DWARF_FORM_H

#include <stddef.h>
#include <stdint.h>

/* The DWARF 5 numbers this reader uses (no system header has them). */
enum {
	DW_FORM_addr = 0x01,
	DW_FORM_block2 = 0x03,
	DW_FORM_block4 = 0x04,
	DW_FORM_data2 = 0x05,
	DW_FORM_data4 = 0x06,
	DW_FORM_data8 = 0x07,
	DW_FORM_string = 0x08,
	DW_FORM_block = 0x09,
	DW_FORM_block1 = 0x0a,
	DW_FORM_data1 = 0x0b,
	DW_FORM_flag = 0x0c,
	DW_FORM_sdata = 0x0d,
	DW_FORM_strp = 0x0e,
	DW_FORM_udata = 0x0f,
	DW_FORM_ref_addr = 0x10,
	DW_FORM_ref1 = 0x11,
	DW_FORM_ref2 = 0x12,
	DW_FORM_ref4 = 0x13,
	DW_FORM_ref8 = 0x14,
	DW_FORM_ref_udata = 0x15,
	DW_FORM_indirect = 0x16,
	DW_FORM_sec_offset = 0x17,
	DW_FORM_exprloc = 0x18,
	DW_FORM_flag_present = 0x19,
	DW_FORM_strx = 0x1a,
	DW_FORM_addrx = 0x1b,
	DW_FORM_ref_sup4 = 0x1c,
	DW_FORM_strp_sup = 0x1d,
	DW_FORM_data16 = 0x1e,
	DW_FORM_line_strp = 0x1f,
	DW_FORM_ref_sig8 = 0x20,
	DW_FORM_implicit_const = 0x21,
	DW_FORM_loclistx = 0x22,
	DW_FORM_rnglistx = 0x23,
	DW_FORM_ref_sup8 = 0x24,
	DW_FORM_strx1 = 0x25,
	DW_FORM_strx2 = 0x26,
	DW_FORM_strx3 = 0x27,
	DW_FORM_strx4 = 0x28,
	DW_FORM_addrx1 = 0x29,
	DW_FORM_addrx2 = 0x2a,
	DW_FORM_addrx3 = 0x2b,
	DW_FORM_addrx4 = 0x2c,
	DW_FORM_GNU_addr_index = 0x1f01,
	DW_FORM_GNU_str_index = 0x1f02,
	DW_FORM_GNU_ref_alt = 0x1f20,
	DW_FORM_GNU_strp_alt = 0x1f21,
	DW_AT_stmt_list = 0x10,
	DW_AT_comp_dir = 0x1b,
	DW_UT_compile = 1,
	DW_UT_partial = 3,
	DW_UT_skeleton = 4,
	DW_LNCT_path = 1,
	DW_LNCT_directory_index = 2,
};

/* A cursor that turns every read past its end into a sticky error, so the
 * parsers check once per loop instead of once per field. */
struct dw_rd {
	const unsigned char *p, *end;
	int bad;
};

/* A section's bytes: n of them at p. A compressed one is inflated as far
 * as it is read (dwarf_cover): then total is its whole size and n grows
 * towards it; 0 when n is the whole. */
struct dw_sec {
	const unsigned char *p;
	size_t n, total;
};

/* A section's whole size, what is not inflated yet included. */
static inline size_t dwarf_size(const struct dw_sec *s)
{
	return s->total ? s->total : s->n;
}

/* A lazily inflated section (dwarf_sections.c) made to hold its first
 * want bytes, or all it has (s->n grows); 0, or -1 when it cannot be
 * inflated. Nothing to do for a section read whole. */
int dwarf_cover(const struct dw_sec *s, size_t want);
/* The unit (headed by its unit_length, as .debug_info's and .debug_line's
 * are) at off of a lazily inflated section made part of what is there
 * (s->n grows); 0, or -1 when it cannot be read. Nothing to do for a
 * section read whole. */
int dwarf_cover_unit(const struct dw_sec *s, uint64_t off);

/* The sections a line lookup reads; p is NULL for an absent one. */
struct dw_secs {
	struct dw_sec line, info, abbrev, str, line_str;
};

/* What a form needs to be decoded: the unit's sizes. */
struct dw_unit {
	unsigned version, offset_size, addr_size;
};

struct dw_val {
	uint64_t u;
	const char *s; /* set for a string in place (DW_FORM_string) */
	/* For a string in .debug_str or .debug_line_str: that section, u
	 * its offset. Read by dw_val_str only when wanted: read for every
	 * entry, the strings a lookup skips made it inflate all of libc's
	 * .debug_str. */
	const struct dw_sec *sec;
};

uint64_t dw_n(struct dw_rd *r, unsigned n); /* n <= 8 bytes, little-endian */
void dw_skip(struct dw_rd *r, uint64_t n);
uint64_t dw_uleb(struct dw_rd *r);
int64_t dw_sleb(struct dw_rd *r);
const char *dw_str(struct dw_rd *r); /* NULL past the end */
/* The NUL-terminated string at off in s, or NULL. */
const char *dw_sec_str(const struct dw_sec *s, uint64_t off);
/* A string value's text, in place or in its section; NULL for none. */
const char *dw_val_str(const struct dw_val *v);
/* Past one abbreviation declaration's tag, children flag and attribute
 * specifications: r at the next declaration's code. */
void dw_abbrev_skip(struct dw_rd *r);
/* The declaration of code in the abbreviation table at off of abbrev: r at
 * its tag; -1 when the table has none. */
int dw_abbrev_find(const struct dw_sec *abbrev, uint64_t off, uint64_t code, struct dw_rd *r);
/* The next attribute of an entry: its name, form and value, read from r
 * by the specification at *spec (left after the entry's tag and children
 * flag). 1 for an attribute, 0 at the entry's end, -1 when either cannot
 * be read. */
int dw_attr_next(struct dw_rd *spec, struct dw_rd *r, const struct dw_unit *u,
                 const struct dw_secs *d, uint64_t *at, uint64_t *form, struct dw_val *v);
/* One attribute value of the given form (implicit: DW_FORM_implicit_const's
 * value from the abbreviation); -1 for a form it does not know. */
int dw_form(struct dw_rd *r, uint64_t form, const struct dw_unit *u, const struct dw_secs *d,
            int64_t implicit, struct dw_val *v);

#endif
