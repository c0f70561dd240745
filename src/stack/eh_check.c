/* Whether one FDE and its CIE are well formed, checked before the
 * unwinder reads them. The dynamic linker never reads .eh_frame, so a
 * program whose .eh_frame is corrupt runs normally, and its reports must
 * too: the stack ends before a corrupt record. The checks are of form
 * only (lengths, encodings, opcodes and register numbers, within the
 * record), and as strict as libgcc's reader, which trusts the tables and
 * faults or calls abort() on them (an unknown call frame opcode, a
 * register number past its table, an expression stack past 64 entries):
 * a record it could not read is not one to trust either. */
#include "eh_frame.h"

#include "../base/compiler.h"

/* libgcc's DWARF_FRAME_REGISTERS: its register table's size. */
#if defined(__aarch64__)
#define FRAME_REGS 97
#else
#define FRAME_REGS 17
#endif

/* An encoding libgcc's read_encoded_value decodes without abort(). */
static int valid_enc(uint8_t enc)
{
	if (enc == PE_OMIT)
		return 1;
	unsigned fmt = enc & PE_FMT_MASK, app = enc & PE_APP_MASK;
	return (fmt <= 4 || (fmt >= 9 && fmt <= 0x0c)) && app <= PE_ALIGNED;
}

/* Past one encoded value within c. */
static int skip_enc(struct cur *c, uint8_t enc)
{
	uint64_t u;
	int64_t s;
	static const uint8_t width[16] = {8, 0, 2, 4, 8, 0, 0, 0, 0, 0, 2, 4, 8};
	if ((enc & PE_APP_MASK) == PE_ALIGNED) { /* libgcc aligns to a pointer */
		uintptr_t p = ((uintptr_t)c->p + 7) & ~(uintptr_t)7;
		if (p > (uintptr_t)c->end)
			return -1;
		c->p = (const uint8_t *)p;
	}
	switch (enc & PE_FMT_MASK) {
	case 0x01:
		return rd_uleb(c, &u);
	case 0x09:
		return rd_sleb(c, &s);
	default:
		if ((size_t)(c->end - c->p) < width[enc & PE_FMT_MASK])
			return -1;
		c->p += width[enc & PE_FMT_MASK];
		return 0;
	}
}

/* A DWARF expression as libgcc's execute_stack_op runs it: known
 * operators, operands inside the block, and a stack that never underflows
 * nor passes its 64 entries. Branches and division are refused. */
static int expr_ok(struct cur e, int depth)
{
	/* what dup, drop, over, pick, swap and rot pop and push */
	static const uint8_t shuffle[6][2] = {{1, 2}, {1, 0}, {2, 3}, {0, 0}, {2, 2}, {3, 3}};
	while (e.p < e.end) {
		uint8_t op;
		uint64_t u;
		int64_t s;
		int pop = 0, push = 1, n = -1;
		rd_u8(&e, &op);
		if (op >= 0x30 && op <= 0x4f) /* lit0..31 */
			n = 0;
		else if (op >= 0x50 && op <= 0x6f) /* reg0..31 */
			n = op - 0x50 < FRAME_REGS ? 0 : -1;
		else if (op >= 0x70 && op <= 0x8f) { /* breg0..31 */
			if (op - 0x70 >= FRAME_REGS || rd_sleb(&e, &s))
				return -1;
			n = 0;
		} else {
			switch (op) {
			case 0x03: /* addr */
				n = 8;
				break;
			case 0x08: /* const1u, const1s, ... const8u, const8s */
			case 0x09:
			case 0x0a:
			case 0x0b:
			case 0x0c:
			case 0x0d:
			case 0x0e:
			case 0x0f:
				n = 1 << ((op - 0x08) / 2);
				break;
			case 0x10: /* constu */
			case 0x11: /* consts */
				if (rd_uleb(&e, &u))
					return -1;
				n = 0;
				break;
			case 0x12: /* dup, drop, over, (pick: refused), swap, rot */
			case 0x13:
			case 0x14:
			case 0x16:
			case 0x17:
				pop = shuffle[op - 0x12][0];
				push = shuffle[op - 0x12][1];
				n = 0;
				break;
			case 0x06: /* deref */
			case 0x19: /* abs */
			case 0x1f: /* neg */
			case 0x20: /* not */
				pop = 1;
				n = 0;
				break;
			case 0x94: /* deref_size */
				pop = 1;
				n = 1;
				break;
			case 0x23: /* plus_uconst */
				if (rd_uleb(&e, &u))
					return -1;
				pop = 1;
				n = 0;
				break;
			case 0x1a: /* and, minus, mul, or, plus, shl, shr, shra, xor */
			case 0x1c:
			case 0x1e:
			case 0x21:
			case 0x22:
			case 0x24:
			case 0x25:
			case 0x26:
			case 0x27:
			case 0x29: /* eq, ge, gt, le, lt, ne */
			case 0x2a:
			case 0x2b:
			case 0x2c:
			case 0x2d:
			case 0x2e:
				pop = 2;
				n = 0;
				break;
			case 0x90: /* regx */
				if (rd_uleb(&e, &u) || u >= FRAME_REGS)
					return -1;
				n = 0;
				break;
			case 0x92: /* bregx */
				if (rd_uleb(&e, &u) || u >= FRAME_REGS || rd_sleb(&e, &s))
					return -1;
				n = 0;
				break;
			case 0x96: /* nop */
				push = 0;
				n = 0;
				break;
			}
		}
		if (n < 0 || (size_t)(e.end - e.p) < (size_t)n)
			return -1;
		e.p += n;
		if (depth < pop)
			return -1;
		depth += push - pop;
		if (depth >= 64)
			return -1;
	}
	return depth > 0 ? 0 : -1;
}

static int reg_ok(struct cur *c, uint64_t *reg)
{
	return rd_uleb(c, reg) || *reg >= FRAME_REGS ? -1 : 0;
}

/* A call frame program as libgcc's execute_cfa_program reads it. */
static int program_ok(struct cur c, uint8_t fde_enc, int *remembered)
{
	while (c.p < c.end) {
		uint8_t op, b;
		uint64_t reg, u, len;
		int64_t s;
		rd_u8(&c, &op);
		if (op & 0xc0) {
			if ((op & 0xc0) == 0x80 && rd_uleb(&c, &u)) /* offset */
				return -1;
			continue; /* advance_loc, restore: the operand is in op */
		}
		switch (op) {
		case 0x0a: /* remember_state: libgcc keeps each on its stack */
			if (++*remembered > 64)
				return -1;
			break;
		case 0x0b: /* restore_state: of none, libgcc reads NULL */
			if (--*remembered < 0)
				return -1;
			break;
		case 0x00: /* nop */
		case 0x2d: /* GNU_window_save, aarch64 negate_ra_state */
			break;
		case 0x01: /* set_loc */
			if (skip_enc(&c, fde_enc))
				return -1;
			break;
		case 0x02:
			if (rd_u8(&c, &b))
				return -1;
			break;
		case 0x03:
			if ((size_t)(c.end - c.p) < 2)
				return -1;
			c.p += 2;
			break;
		case 0x04:
			if ((size_t)(c.end - c.p) < 4)
				return -1;
			c.p += 4;
			break;
		case 0x05: /* offset_extended */
		case 0x14: /* val_offset */
		case 0x2f: /* GNU_negative_offset_extended */
		case 0x0c: /* def_cfa */
			if (reg_ok(&c, &reg) || rd_uleb(&c, &u))
				return -1;
			break;
		case 0x11: /* offset_extended_sf */
		case 0x15: /* val_offset_sf */
		case 0x12: /* def_cfa_sf */
			if (reg_ok(&c, &reg) || rd_sleb(&c, &s))
				return -1;
			break;
		case 0x06: /* restore_extended */
		case 0x07: /* undefined */
		case 0x08: /* same_value */
		case 0x0d: /* def_cfa_register */
			if (reg_ok(&c, &reg))
				return -1;
			break;
		case 0x09: /* register */
			if (reg_ok(&c, &reg) || reg_ok(&c, &u))
				return -1;
			break;
		case 0x0e: /* def_cfa_offset */
		case 0x2e: /* GNU_args_size */
			if (rd_uleb(&c, &u))
				return -1;
			break;
		case 0x13: /* def_cfa_offset_sf */
			if (rd_sleb(&c, &s))
				return -1;
			break;
		case 0x0f: /* def_cfa_expression: pushes nothing first */
		case 0x10: /* expression: the CFA pushed first */
		case 0x16: /* val_expression */
			if ((op != 0x0f && reg_ok(&c, &reg)) || rd_uleb(&c, &len) ||
			    len > (size_t)(c.end - c.p))
				return -1;
			if (expr_ok((struct cur){c.p, c.p + len}, 1)) /* starts with one value */
				return -1;
			c.p += len;
			break;
		default:
			return -1;
		}
	}
	return 0;
}

int eh_fde_sane(const struct obj *o, uintptr_t fde)
{
	struct cur f, c;
	uint32_t id, cid;
	uintptr_t id_at, cid_at;
	uint8_t version, ch, enc = PE_ABS;
	uint64_t u, ra, len;
	int64_t s;
	int z;
	if (rd_record(o, fde, &f, &id, &id_at) || id == 0 || id > id_at - o->lo ||
	    rd_record(o, id_at - id, &c, &cid, &cid_at) || cid != 0)
		return 0;
	if (rd_u8(&c, &version) || (version != 1 && version != 3))
		return 0;
	const uint8_t *aug = c.p;
	do /* libgcc takes strlen() of it: it must end in the record */
		if (rd_u8(&c, &ch))
			return 0;
	while (ch);
	z = aug[0] == 'z';
	if (aug[0] == 'e' && aug[1] == 'h')
		return 0;
	if (rd_uleb(&c, &u) || rd_sleb(&c, &s))
		return 0;
	if (version == 1) {
		if (rd_u8(&c, &ch))
			return 0;
		ra = ch;
	} else if (rd_uleb(&c, &ra)) {
		return 0;
	}
	if (ra >= FRAME_REGS) /* libgcc asserts it is in its table */
		return 0;
	if (z) {
		if (rd_uleb(&c, &len) || len > (size_t)(c.end - c.p))
			return 0;
		struct cur a = {c.p, c.p + len};
		c.p = a.end;
		for (const uint8_t *p = aug + 1; *p; p++) {
			uint8_t e;
			if (*p == 'R' || *p == 'L' || *p == 'P') {
				if (rd_u8(&a, &e) || !valid_enc(e))
					return 0;
				if (*p == 'R')
					enc = e;
				if (*p == 'P' && (e == PE_OMIT || skip_enc(&a, e)))
					return 0;
			} else if (*p != 'S' && *p != 'B' && *p != 'G') {
				break; /* libgcc stops at what it does not know */
			}
		}
	}
	if (!valid_enc(enc) || enc == PE_OMIT || skip_enc(&f, enc) || skip_enc(&f, enc & 0x0f))
		return 0;
	if (z && (rd_uleb(&f, &len) || len > (size_t)(f.end - f.p)))
		return 0;
	if (z)
		f.p += len;
	int remembered = 0; /* the CIE's program runs first, in the same state */
	return program_ok(c, enc, &remembered) == 0 && program_ok(f, enc, &remembered) == 0;
}
