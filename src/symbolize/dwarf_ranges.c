/* The sections and address ranges of dwarf_info.c's lookup: which code
 * an entry covers (DW_AT_low_pc/high_pc, DWARF 4's .debug_ranges, DWARF 5's
 * .debug_rnglists and .debug_addr), and strings through
 * .debug_str_offsets. Every offset read from the image is checked. */
#define _GNU_SOURCE
#include <string.h>

#include "dwarf_info_impl.h"
#include "dwarf_line.h"

/* Entry idx of a table of size-byte values at base in sec; 0 when out of
 * it. */
static int table_entry(const struct dw_sec *sec, uint64_t base, uint64_t idx, unsigned size,
                       uint64_t *v)
{
	if (!sec->p || idx > (UINT64_MAX - base) / size - 1 ||
	    dwarf_cover(sec, base + (idx + 1) * size) || base + idx * size > sec->n ||
	    sec->n - (base + idx * size) < size)
		return 0;
	struct dw_rd r = {sec->p + base + idx * size, sec->p + sec->n, 0};
	*v = dw_n(&r, size);
	return !r.bad;
}

int dwi_addr_at(const struct secs *s, const struct unit *cu, uint64_t idx, uint64_t *v)
{
	/* without DW_AT_addr_base, the first table's entries follow its
	 * 8-byte header */
	uint64_t base = cu->has_addr_base ? cu->addr_base : 8;
	return table_entry(&s->addr, base, idx, cu->u.addr_size, v);
}

const char *dwi_string_of(const struct secs *s, const struct unit *cu, uint64_t form,
                          const struct dw_val *v)
{
	if (v->s || v->sec)
		return dw_val_str(v);
	if (form == DW_FORM_strx || (form >= DW_FORM_strx1 && form <= DW_FORM_strx4)) {
		uint64_t off;
		uint64_t base = cu->has_str_base ? cu->str_base : 8;
		if (!table_entry(&s->str_offsets, base, v->u, cu->u.offset_size, &off))
			return NULL;
		return dw_sec_str(&s->d.str, off);
	}
	return NULL;
}

/* DWARF 4's .debug_ranges pairs at off: 1 when one holds addr (its range
 * into lo, hi), 0 when the list ends without, -1 when it runs past the
 * bytes there are. */
static int pairs_hold(const struct dw_sec *sec, uint64_t off, unsigned as, uint64_t base,
                      uint64_t addr, uint64_t *lo, uint64_t *hi)
{
	struct dw_rd r = {sec->p + off, sec->p + sec->n, 0};
	uint64_t all = as == 8 ? UINT64_MAX : 0xffffffffu;
	for (;;) {
		uint64_t a = dw_n(&r, as), b = dw_n(&r, as);
		if (r.bad)
			return -1;
		if (!a && !b)
			return 0;
		if (a == all) {
			base = b;
			continue;
		}
		if (addr >= base + a && addr < base + b) {
			*lo = base + a;
			*hi = base + b;
			return 1;
		}
	}
}

/* DWARF 5's .debug_rnglists entries at off, the same way. */
static int entries_hold(const struct secs *s, const struct unit *cu, uint64_t off, uint64_t addr,
                        uint64_t *lo, uint64_t *hi)
{
	uint64_t base = cu->low;
	unsigned as = cu->u.addr_size;
	struct dw_rd r = {s->rnglists.p + off, s->rnglists.p + s->rnglists.n, 0};
	for (int n = 0; n < 100000; n++) {
		uint64_t a = 0, b = 0, kind = dw_n(&r, 1);
		int have = 0;
		switch (kind) {
		case 0: /* DW_RLE_end_of_list */
			return r.bad ? -1 : 0;
		case 1: /* base_addressx */
			if (!dwi_addr_at(s, cu, dw_uleb(&r), &base))
				return r.bad ? -1 : 0;
			break;
		case 2: /* startx_endx */
			have = dwi_addr_at(s, cu, dw_uleb(&r), &a) &&
			       dwi_addr_at(s, cu, dw_uleb(&r), &b);
			break;
		case 3: /* startx_length */
			have = dwi_addr_at(s, cu, dw_uleb(&r), &a);
			b = a + dw_uleb(&r);
			break;
		case 4: /* offset_pair */
			a = base + dw_uleb(&r);
			b = base + dw_uleb(&r);
			have = 1;
			break;
		case 5: /* base_address */
			base = dw_n(&r, as);
			break;
		case 6: /* start_end */
			a = dw_n(&r, as);
			b = dw_n(&r, as);
			have = 1;
			break;
		case 7: /* start_length */
			a = dw_n(&r, as);
			b = a + dw_uleb(&r);
			have = 1;
			break;
		default:
			return 0;
		}
		if (r.bad)
			return -1;
		if (have && addr >= a && addr < b) {
			*lo = a;
			*hi = b;
			return 1;
		}
	}
	return 0;
}

/* Whether the ranges at off hold addr: DWARF 4's .debug_ranges pairs or
 * DWARF 5's .debug_rnglists entries; its range into lo, hi. A lazily
 * inflated section is inflated on until the list ends in it. */
static int ranges_hold(const struct secs *s, const struct unit *cu, const struct die *e,
                       uint64_t addr, uint64_t *lo, uint64_t *hi)
{
	int v5 = cu->u.version >= 5;
	const struct dw_sec *sec = v5 ? &s->rnglists : &s->ranges;
	uint64_t off = e->ranges;
	if (v5 && e->ranges_indexed) {
		uint64_t rel, size = cu->u.offset_size;
		if (!cu->has_rng_base || !table_entry(sec, cu->rng_base, off, size, &rel) ||
		    rel > UINT64_MAX - cu->rng_base)
			return 0;
		off = cu->rng_base + rel;
	}
	for (uint64_t want = off + 4096;; want = 2 * (uint64_t)sec->n) {
		if (!sec->p || want < off || dwarf_cover(sec, want) || off >= sec->n)
			return 0;
		int got = v5 ? entries_hold(s, cu, off, addr, lo, hi)
		             : pairs_hold(sec, off, cu->u.addr_size, cu->low, addr, lo, hi);
		if (got >= 0 || sec->n >= dwarf_size(sec))
			return got > 0;
	}
}

/* Whether entry e's code holds addr, and the range that does. */
int dwi_holds(const struct secs *s, const struct unit *cu, const struct die *e, uint64_t addr,
              uint64_t *lo, uint64_t *hi)
{
	if (e->has_ranges)
		return ranges_hold(s, cu, e, addr, lo, hi);
	if (!e->has_low || !e->has_high)
		return 0;
	uint64_t a = e->low, b = e->high;
	if (e->has_low == 2 && !dwi_addr_at(s, cu, e->low, &a))
		return 0;
	if (e->high_is_size)
		b = a + e->high;
	if (addr < a || addr >= b)
		return 0;
	*lo = a;
	*hi = b;
	return 1;
}
