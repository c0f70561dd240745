/* Reading .eh_frame data: every read is bounded by the object the pc is
 * in, so corrupt data cannot send us to arbitrary addresses. */
#include "eh_frame.h"

#include "../arch/arch.h"
#include "../base/compiler.h"

int rd_bytes(struct cur *c, void *v, size_t n)
{
	if ((size_t)(c->end - c->p) < n)
		return -1;
	__builtin_memcpy(v, c->p, n);
	c->p += n;
	return 0;
}

int rd_u8(struct cur *c, uint8_t *v)
{
	return rd_bytes(c, v, 1);
}

/* LEB128: seven bits a byte, low first; a signed value extends the sign
 * bit of its last byte. */
static int rd_leb(struct cur *c, uint64_t *v, int is_signed)
{
	uint64_t r = 0;
	for (unsigned shift = 0; shift < 64; shift += 7) {
		uint8_t b;
		if (rd_u8(c, &b))
			return -1;
		r |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80)) {
			if (is_signed && shift + 7 < 64 && (b & 0x40))
				r |= ~(uint64_t)0 << (shift + 7);
			*v = r;
			return 0;
		}
	}
	return -1;
}

int rd_uleb(struct cur *c, uint64_t *v)
{
	return rd_leb(c, v, 0);
}

int rd_sleb(struct cur *c, int64_t *v)
{
	uint64_t r;
	if (rd_leb(c, &r, 1))
		return -1;
	*v = (int64_t)r;
	return 0;
}

/* A DW_EH_PE-encoded value. Only the applications that occur in x86-64
 * .eh_frame and .eh_frame_hdr sections are accepted: absolute, pc-relative
 * and (for the header) relative to the header itself. */
int rd_encoded(struct cur *c, uint8_t enc, uintptr_t datarel, uintptr_t *v)
{
	uintptr_t at = (uintptr_t)c->p;
	uint64_t u;
	int64_t s;
	uint32_t u32;
	int32_t s32;
	uint16_t u16;
	int16_t s16;

	if (enc == PE_OMIT || (enc & PE_INDIRECT))
		return -1;
	switch (enc & PE_FMT_MASK) {
	case 0x00: /* absptr */
	case 0x04: /* udata8 */
	case 0x0c: /* sdata8 */
		if (rd_bytes(c, &u, 8))
			return -1;
		break;
	case 0x01:
		if (rd_uleb(c, &u))
			return -1;
		break;
	case 0x02:
		if (rd_bytes(c, &u16, 2))
			return -1;
		u = u16;
		break;
	case 0x03:
		if (rd_bytes(c, &u32, 4))
			return -1;
		u = u32;
		break;
	case 0x09:
		if (rd_sleb(c, &s))
			return -1;
		u = (uint64_t)s;
		break;
	case 0x0a:
		if (rd_bytes(c, &s16, 2))
			return -1;
		u = (uint64_t)(int64_t)s16;
		break;
	case 0x0b:
		if (rd_bytes(c, &s32, 4))
			return -1;
		u = (uint64_t)(int64_t)s32;
		break;
	default:
		return -1;
	}
	switch (enc & PE_APP_MASK) {
	case PE_ABS:
		break;
	case PE_PCREL:
		u += at;
		break;
	case PE_DATAREL:
		if (!datarel)
			return -1;
		u += datarel;
		break;
	default:
		return -1;
	}
	*v = u;
	return 0;
}

/* A CIE or FDE: its body (after the id / CIE pointer field) and the address
 * of that field, from which an FDE's CIE pointer counts. */
int rd_record(const struct obj *o, uintptr_t at, struct cur *body, uint32_t *id, uintptr_t *id_at)
{
	uint32_t len;
	if (o->hi < 8 || at < o->lo || at > o->hi - 8)
		return -1;
	__builtin_memcpy(&len, (const void *)at, 4);
	/* 0 ends the section; 64-bit lengths do not occur in .eh_frame. */
	if (len < 4 || len == 0xffffffffu || len > o->hi - at - 4)
		return -1;
	__builtin_memcpy(id, (const void *)(at + 4), 4);
	*id_at = at + 4;
	body->p = (const uint8_t *)(at + 8);
	body->end = (const uint8_t *)(at + 4 + len);
	return 0;
}

int parse_cie(const struct obj *o, uintptr_t at, struct cie *ci)
{
	struct cur c;
	uint32_t id;
	uintptr_t id_at;
	uint8_t version, aug[AUG_MAX + 1], b;
	int n = 0;

	if (rd_record(o, at, &c, &id, &id_at) || id != 0)
		return -1;
	if (rd_u8(&c, &version) || (version != 1 && version != 3))
		return -1;
	do {
		if (n > AUG_MAX || rd_u8(&c, &aug[n]))
			return -1;
	} while (aug[n++]);
	/* Without 'z' the augmentation data cannot be skipped; "eh" is gone
	 * since GCC 3. */
	if (aug[0] && aug[0] != 'z')
		return -1;
	if (rd_uleb(&c, &ci->code_align) || rd_sleb(&c, &ci->data_align))
		return -1;
	if (version == 1) {
		if (rd_u8(&c, &b))
			return -1;
		ci->ra_col = b;
	} else if (rd_uleb(&c, &ci->ra_col)) {
		return -1;
	}
	/* Keep the arithmetic on factored offsets far from overflow. */
	if (!ci->code_align || ci->code_align > 0x10000 || ci->data_align < -256 ||
	    ci->data_align > 256 || ci->ra_col == DW_REG_FP || ci->ra_col == DW_REG_SP)
		return -1;
	ci->fde_enc = PE_ABS;
	ci->has_z = aug[0] == 'z';
	ci->signal = 0;
	if (ci->has_z) {
		uint64_t len;
		struct cur a;
		uintptr_t skip;
		if (rd_uleb(&c, &len) || len > (size_t)(c.end - c.p))
			return -1;
		a.p = c.p;
		a.end = c.p + len;
		c.p = a.end;
		for (int i = 1; aug[i]; i++) {
			switch (aug[i]) {
			case 'R':
				if (rd_u8(&a, &ci->fde_enc))
					return -1;
				break;
			case 'L':
				if (rd_u8(&a, &b))
					return -1;
				break;
			case 'P': /* the personality routine: not needed to unwind */
				if (rd_u8(&a, &b) || (b & PE_APP_MASK) == PE_ALIGNED ||
				    rd_encoded(&a, b & PE_FMT_MASK, 0, &skip))
					return -1;
				break;
			case 'S':
				ci->signal = 1;
				break;
			default:
				return -1;
			}
		}
	}
	ci->insn = c;
	return 0;
}

/* The FDE covering q in the object's sorted .eh_frame_hdr table. Returns 1
 * with the FDE's address, 0 if there is none (the stack ends there, as for
 * libgcc), -1 if the table is not in the form we binary-search. */
int find_fde(uintptr_t q, const struct obj *o, const uint8_t *hdr, uintptr_t *fde)
{
	struct cur c = {hdr, (const uint8_t *)o->hi};
	uint8_t h[4];
	uintptr_t skip, count;
	if ((uintptr_t)hdr < o->lo || (uintptr_t)hdr >= o->hi || rd_bytes(&c, h, 4) || h[0] != 1 ||
	    h[3] != PE_HDR_TABLE)
		return -1;
	if (rd_encoded(&c, h[1], (uintptr_t)hdr, &skip) ||
	    rd_encoded(&c, h[2], (uintptr_t)hdr, &count))
		return -1;
	if (count > (size_t)(c.end - c.p) / 8)
		return -1;
	if (!count)
		return 0;
	const uint8_t *table = c.p;
	int64_t key = (int64_t)(q - (uintptr_t)hdr);
	size_t lo = 0, hi = count;
	int32_t e[2];
	/* The last entry starting at or before q. */
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;
		__builtin_memcpy(e, table + mid * 8, 4);
		if ((int64_t)e[0] <= key)
			lo = mid;
		else
			hi = mid;
	}
	__builtin_memcpy(e, table + lo * 8, 8);
	if ((int64_t)e[0] > key)
		return 0;
	*fde = (uintptr_t)hdr + (uintptr_t)(int64_t)e[1];
	return 1;
}
