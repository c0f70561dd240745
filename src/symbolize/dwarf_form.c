#include "dwarf_form.h"

#include <string.h>

uint64_t dw_n(struct dw_rd *r, unsigned n)
{
	uint64_t v = 0;
	if (r->bad || n > 8 || (size_t)(r->end - r->p) < n) { /* a unit's address size is read */
		r->bad = 1;
		return 0;
	}
	for (unsigned i = 0; i < n; i++) /* both targets are little-endian */
		v |= (uint64_t)r->p[i] << (8 * i);
	r->p += n;
	return v;
}

void dw_skip(struct dw_rd *r, uint64_t n)
{
	if (r->bad || (uint64_t)(r->end - r->p) < n)
		r->bad = 1;
	else
		r->p += n;
}

uint64_t dw_uleb(struct dw_rd *r)
{
	uint64_t v = 0;
	unsigned shift = 0;
	while (!r->bad) {
		if (r->p >= r->end) {
			r->bad = 1;
			break;
		}
		unsigned char b = *r->p++;
		if (shift < 64)
			v |= (uint64_t)(b & 0x7f) << shift;
		shift += 7;
		if (!(b & 0x80))
			return v;
	}
	return 0;
}

int64_t dw_sleb(struct dw_rd *r)
{
	uint64_t v = 0;
	unsigned shift = 0;
	while (!r->bad) {
		if (r->p >= r->end) {
			r->bad = 1;
			break;
		}
		unsigned char b = *r->p++;
		if (shift < 64)
			v |= (uint64_t)(b & 0x7f) << shift;
		shift += 7;
		if (!(b & 0x80)) {
			if (shift < 64 && (b & 0x40))
				v |= ~(uint64_t)0 << shift;
			return (int64_t)v;
		}
	}
	return 0;
}

const char *dw_str(struct dw_rd *r)
{
	if (r->bad)
		return NULL;
	const unsigned char *nul = memchr(r->p, 0, (size_t)(r->end - r->p));
	if (!nul) {
		r->bad = 1;
		return NULL;
	}
	const char *s = (const char *)r->p;
	r->p = nul + 1;
	return s;
}

void dw_abbrev_skip(struct dw_rd *r)
{
	dw_uleb(r); /* tag */
	dw_n(r, 1); /* children */
	for (;;) {
		uint64_t at = dw_uleb(r), form = dw_uleb(r);
		if (form == DW_FORM_implicit_const)
			dw_sleb(r);
		if (r->bad || (!at && !form))
			return;
	}
}

int dw_abbrev_find(const struct dw_sec *abbrev, uint64_t off, uint64_t code, struct dw_rd *r)
{
	if (off >= abbrev->n)
		return -1;
	*r = (struct dw_rd){abbrev->p + off, abbrev->p + abbrev->n, 0};
	while (!r->bad) {
		uint64_t c = dw_uleb(r);
		if (!c || r->bad)
			return -1;
		if (c == code)
			return 0;
		dw_abbrev_skip(r);
	}
	return -1;
}

int dw_attr_next(struct dw_rd *spec, struct dw_rd *r, const struct dw_unit *u,
                 const struct dw_secs *d, uint64_t *at, uint64_t *form, struct dw_val *v)
{
	*at = dw_uleb(spec);
	*form = dw_uleb(spec);
	int64_t implicit = *form == DW_FORM_implicit_const ? dw_sleb(spec) : 0;
	if (spec->bad)
		return -1;
	if (!*at && !*form)
		return 0;
	return dw_form(r, *form, u, d, implicit, v) ? -1 : 1;
}

/* A NUL-terminated string at off in s, or NULL. */
const char *dw_sec_str(const struct dw_sec *s, uint64_t off)
{
	if (!s->p || off >= dwarf_size(s))
		return NULL;
	/* A lazily inflated section is inflated on until the string ends
	 * in it. */
	for (uint64_t want = off + 64;; want *= 2) {
		if (want < off || dwarf_cover(s, want))
			return NULL;
		if (off < s->n && memchr(s->p + off, 0, s->n - off))
			return (const char *)s->p + off;
		if (s->n >= dwarf_size(s))
			return NULL;
	}
}

const char *dw_val_str(const struct dw_val *v)
{
	return v->s ? v->s : v->sec ? dw_sec_str(v->sec, v->u) : NULL;
}

/* One attribute value of the given form; -1 for a form this reader does
 * not know, which makes the whole module fall back to the external tool. */
int dw_form(struct dw_rd *r, uint64_t form, const struct dw_unit *u, const struct dw_secs *d,
            int64_t implicit, struct dw_val *v)
{
	v->u = 0;
	v->s = NULL;
	v->sec = NULL;
	switch (form) {
	case DW_FORM_addr:
		v->u = dw_n(r, u->addr_size);
		break;
	case DW_FORM_data1:
	case DW_FORM_ref1:
	case DW_FORM_flag:
	case DW_FORM_strx1:
	case DW_FORM_addrx1:
		v->u = dw_n(r, 1);
		break;
	case DW_FORM_data2:
	case DW_FORM_ref2:
	case DW_FORM_strx2:
	case DW_FORM_addrx2:
		v->u = dw_n(r, 2);
		break;
	case DW_FORM_strx3:
	case DW_FORM_addrx3:
		v->u = dw_n(r, 3);
		break;
	case DW_FORM_data4:
	case DW_FORM_ref4:
	case DW_FORM_strx4:
	case DW_FORM_addrx4:
	case DW_FORM_ref_sup4:
		v->u = dw_n(r, 4);
		break;
	case DW_FORM_data8:
	case DW_FORM_ref8:
	case DW_FORM_ref_sig8:
	case DW_FORM_ref_sup8:
		v->u = dw_n(r, 8);
		break;
	case DW_FORM_data16:
		dw_skip(r, 16);
		break;
	case DW_FORM_sdata:
		v->u = (uint64_t)dw_sleb(r);
		break;
	case DW_FORM_udata:
	case DW_FORM_ref_udata:
	case DW_FORM_strx:
	case DW_FORM_addrx:
	case DW_FORM_loclistx:
	case DW_FORM_rnglistx:
	case DW_FORM_GNU_addr_index:
	case DW_FORM_GNU_str_index:
		v->u = dw_uleb(r);
		break;
	case DW_FORM_string:
		v->s = dw_str(r);
		break;
	case DW_FORM_strp:
		v->u = dw_n(r, u->offset_size);
		v->sec = &d->str;
		break;
	case DW_FORM_line_strp:
		v->u = dw_n(r, u->offset_size);
		v->sec = &d->line_str;
		break;
	case DW_FORM_sec_offset:
	case DW_FORM_strp_sup:
	case DW_FORM_GNU_ref_alt:
	case DW_FORM_GNU_strp_alt:
		v->u = dw_n(r, u->offset_size);
		break;
	case DW_FORM_ref_addr: /* DWARF 2 made it address-sized */
		v->u = dw_n(r, u->version <= 2 ? u->addr_size : u->offset_size);
		break;
	case DW_FORM_flag_present:
		v->u = 1;
		break;
	case DW_FORM_implicit_const:
		v->u = (uint64_t)implicit;
		break;
	case DW_FORM_block1:
		dw_skip(r, dw_n(r, 1));
		break;
	case DW_FORM_block2:
		dw_skip(r, dw_n(r, 2));
		break;
	case DW_FORM_block4:
		dw_skip(r, dw_n(r, 4));
		break;
	case DW_FORM_block:
	case DW_FORM_exprloc:
		dw_skip(r, dw_uleb(r));
		break;
	case DW_FORM_indirect: {
		uint64_t f = dw_uleb(r);
		if (f == DW_FORM_indirect || f == DW_FORM_implicit_const)
			return -1;
		return dw_form(r, f, u, d, 0, v);
	}
	default:
		return -1;
	}
	return r->bad ? -1 : 0;
}
