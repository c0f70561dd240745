/* Fast x86-64 DWARF unwinder with a per-pc rule cache (see unwind.h).
 *
 * A frame is stepped over by a "rule": where the CFA is (rsp or rbp plus an
 * offset, optionally loaded from there), where the return address and rbp
 * are saved (relative to the CFA, rsp or rbp), and whether the frame is a
 * signal frame. That is all x86-64 needs: the caller's rsp is the CFA, and
 * no CFA rule compilers emit for ordinary code uses another register. The
 * rule for a pc is derived from the .eh_frame FDE covering it, the way
 * DWARF defines it (the row of the CFA program in effect at that pc), once;
 * afterwards it comes from a direct-mapped cache. */
#define _GNU_SOURCE
#include "unwind.h"

#include <dlfcn.h>
#include <stddef.h>

#include "../core/common.h"
#include "stack.h"

#if defined(__x86_64__)

/* DWARF register numbers of the x86-64 psABI. */
#define DW_RBP 6
#define DW_RSP 7

#define DW_OP_deref 0x06
#define DW_OP_breg6 0x76 /* rbp + offset */
#define DW_OP_breg7 0x77 /* rsp + offset */

#define PE_OMIT      0xff
#define PE_ABS       0x00
#define PE_PCREL     0x10
#define PE_DATAREL   0x30
#define PE_ALIGNED   0x50
#define PE_INDIRECT  0x80
#define PE_APP_MASK  0x70
#define PE_FMT_MASK  0x0f
#define PE_HDR_TABLE (PE_DATAREL | 0x0b) /* datarel | sdata4: the sorted table */
#define REMEMBER_MAX 8
#define AUG_MAX      8

/* Where a value is found: at the CFA or a register of the frame, plus an
 * offset. BASE_NONE: the register keeps its value in the caller. */
enum base { BASE_CFA, BASE_RSP, BASE_RBP, BASE_NONE };

enum kind {
	KIND_FRAME,
	/* Signal trampoline: the caller's pc is where the signal interrupted
	 * it, not a return address, so its lookup must not use pc - 1. */
	KIND_SIGNAL,
	/* The outermost frame (return address undefined, or no FDE): libgcc
	 * reports the frame and stops there too. */
	KIND_END,
	KIND_UNSUPPORTED,
};

struct rule {
	int32_t cfa_off, ra_off, rbp_off;
	uint8_t kind, cfa_base, cfa_deref, ra_base, rbp_base;
};

/* A rule packed in two words, as cached; the walk unpacks it in registers.
 * w0: CFA offset, return address offset; w1: rbp offset, then the kind, the
 * bases, and the cache generation it was stored in. */
struct packed {
	uint64_t w0, w1;
};

#define P_KIND(p)      ((unsigned)((p).w1 >> 32) & 3)
#define P_CFA_BASE(p)  ((unsigned)((p).w1 >> 34) & 3)
#define P_CFA_DEREF(p) ((unsigned)((p).w1 >> 36) & 1)
#define P_RA_BASE(p)   ((unsigned)((p).w1 >> 37) & 3)
#define P_RBP_BASE(p)  ((unsigned)((p).w1 >> 39) & 3)
#define P_CFA_OFF(p)   ((intptr_t)(int32_t)(p).w0)
#define P_RA_OFF(p)    ((intptr_t)(int32_t)((p).w0 >> 32))
#define P_RBP_OFF(p)   ((intptr_t)(int32_t)(p).w1)
#define P_GEN_SHIFT    41
#define P_GEN_MASK     ((1u << (64 - P_GEN_SHIFT)) - 1)

static struct packed pack(const struct rule *r)
{
	struct packed p;
	p.w0 = (uint32_t)r->cfa_off | (uint64_t)(uint32_t)r->ra_off << 32;
	p.w1 = (uint32_t)r->rbp_off | (uint64_t)(r->kind & 3) << 32 |
	       (uint64_t)(r->cfa_base & 3) << 34 | (uint64_t)(r->cfa_deref & 1) << 36 |
	       (uint64_t)(r->ra_base & 3) << 37 | (uint64_t)(r->rbp_base & 3) << 39;
	return p;
}

/* The cache: one slot per hash of the looked-up pc, each a sequence lock
 * (odd while a writer fills it). A reader copies pc and rule between two
 * reads of the sequence and uses the copy only if both reads saw the same
 * even number, so it never uses a pc with another pc's rule: a writer that
 * overlapped the copy changed the sequence (it is 64 bits, so it cannot wrap
 * back within a read). Writers never wait: one that finds the slot busy
 * leaves it, so a signal handler interrupting a writer of its own thread
 * only misses. Every writer for a pc stores the same rule (it depends only on
 * the object's .eh_frame), so which of two racing writers wins is moot. In
 * a child of fork, a slot a parent's thread was filling stays odd: unused.
 *
 * Rules are tagged with the generation they were computed in; a flush moves
 * to the next one, which also voids what a writer that raced the flush
 * stores (it read the old generation first). */
#ifndef UNWIND_CACHE_ORDER
#define UNWIND_CACHE_ORDER 12
#endif
#define CACHE_SLOTS (1u << UNWIND_CACHE_ORDER)

struct slot {
	uint64_t seq;
	uint64_t pc;
	uint64_t w[2];
};

static struct slot cache[CACHE_SLOTS] __attribute__((aligned(64)));
static uint32_t cache_gen;

static inline struct slot *slot_of(uintptr_t q)
{
	return &cache[(q * 0x9e3779b97f4a7c15ull) >> (64 - UNWIND_CACHE_ORDER)];
}

static inline int cache_get(uintptr_t q, uint64_t gen, struct packed *r)
{
	struct slot *s = slot_of(q);
	uint64_t seq = __atomic_load_n(&s->seq, __ATOMIC_ACQUIRE);
	uint64_t pc = __atomic_load_n(&s->pc, __ATOMIC_RELAXED);
	r->w0 = __atomic_load_n(&s->w[0], __ATOMIC_RELAXED);
	r->w1 = __atomic_load_n(&s->w[1], __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	return !(seq & 1) && pc == q && r->w1 >> P_GEN_SHIFT == gen &&
	       __atomic_load_n(&s->seq, __ATOMIC_RELAXED) == seq;
}

static void cache_put(uintptr_t q, struct packed r)
{
	struct slot *s = slot_of(q);
	uint64_t seq = __atomic_load_n(&s->seq, __ATOMIC_RELAXED);
	if ((seq & 1) || !__atomic_compare_exchange_n(&s->seq, &seq, seq + 1, 0, __ATOMIC_ACQUIRE,
	                                              __ATOMIC_RELAXED))
		return;
	/* A reader that sees any of the stores below must see the odd seq. */
	__atomic_thread_fence(__ATOMIC_RELEASE);
	__atomic_store_n(&s->pc, q, __ATOMIC_RELAXED);
	__atomic_store_n(&s->w[0], r.w0, __ATOMIC_RELAXED);
	__atomic_store_n(&s->w[1], r.w1, __ATOMIC_RELAXED);
	__atomic_store_n(&s->seq, seq + 2, __ATOMIC_RELEASE);
}

void unwind_cache_flush(void)
{
	__atomic_add_fetch(&cache_gen, 1, __ATOMIC_RELEASE);
}

/* Bounded readers of .eh_frame data: each fails rather than read past end. */
struct cur {
	const uint8_t *p, *end;
};

static int rd_bytes(struct cur *c, void *v, size_t n)
{
	if ((size_t)(c->end - c->p) < n)
		return -1;
	__builtin_memcpy(v, c->p, n);
	c->p += n;
	return 0;
}

static int rd_u8(struct cur *c, uint8_t *v)
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

static int rd_uleb(struct cur *c, uint64_t *v)
{
	return rd_leb(c, v, 0);
}

static int rd_sleb(struct cur *c, int64_t *v)
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
static int rd_encoded(struct cur *c, uint8_t enc, uintptr_t datarel, uintptr_t *v)
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

/* The extent of the object the pc is in: every .eh_frame pointer must stay
 * inside it, so corrupt data cannot send us to arbitrary addresses. */
struct obj {
	uintptr_t lo, hi;
};

/* A CIE or FDE: its body (after the id / CIE pointer field) and the address
 * of that field, from which an FDE's CIE pointer counts. */
static int rd_record(const struct obj *o, uintptr_t at, struct cur *body, uint32_t *id,
                     uintptr_t *id_at)
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

struct cie {
	uint64_t code_align;
	int64_t data_align;
	uint64_t ra_col;
	uint8_t fde_enc, has_z, signal;
	struct cur insn;
};

static int parse_cie(const struct obj *o, uintptr_t at, struct cie *ci)
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
	    ci->data_align > 256 || ci->ra_col == DW_RBP || ci->ra_col == DW_RSP)
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

/* How the caller's value of a register we track is found. */
enum how {
	HOW_UNSET, /* no rule at all */
	HOW_SAME,  /* same_value, or undefined for rbp: it keeps its value */
	HOW_UNDEF, /* undefined: for the return address, the outermost frame */
	HOW_AT,    /* saved in memory at base + off */
	HOW_BAD,   /* a rule we do not implement */
};

struct reg_rule {
	uint8_t how, base;
	int64_t off;
};

/* The registers we track, as indices into a row. */
enum { T_RBP, T_RSP, T_RA, T_NUM };

/* One row of the CFI table, for the registers unwinding needs. */
struct row {
	uint64_t cfa_reg;
	int64_t cfa_off;
	uint8_t cfa_deref, cfa_bad;
	struct reg_rule regs[T_NUM];
};

struct exec {
	const struct cie *ci;
	uintptr_t loc, q;
	const struct row *init; /* the CIE's row, for DW_CFA_restore */
	struct row saved[REMEMBER_MAX];
	int depth;
};

/* Rules for registers we do not track are parsed and dropped. */
static int tracked(const struct exec *x, uint64_t reg)
{
	if (reg == x->ci->ra_col)
		return T_RA;
	if (reg == DW_RBP)
		return T_RBP;
	if (reg == DW_RSP)
		return T_RSP;
	return -1;
}

static void set_rule(struct row *row, const struct exec *x, uint64_t reg, uint8_t how, uint8_t base,
                     int64_t off)
{
	int t = tracked(x, reg);
	if (t >= 0) {
		row->regs[t].how = how;
		row->regs[t].base = base;
		row->regs[t].off = off;
	}
}

/* A factored offset; a value no frame could have makes the rule unusable. */
static void set_saved(struct row *row, const struct exec *x, uint64_t reg, int64_t factor)
{
	if (factor < -(1ll << 31) || factor > (1ll << 31))
		set_rule(row, x, reg, HOW_BAD, 0, 0);
	else
		set_rule(row, x, reg, HOW_AT, BASE_CFA, factor * x->ci->data_align);
}

static void restore(struct row *row, const struct exec *x, uint64_t reg)
{
	int t = tracked(x, reg);
	if (t < 0)
		return;
	if (x->init)
		row->regs[t] = x->init->regs[t];
	else
		row->regs[t].how = HOW_UNSET;
}

static void advance(struct exec *x, uint64_t delta)
{
	uint64_t d = delta * x->ci->code_align; /* both below 2^32 and 2^17 */
	if (__builtin_add_overflow(x->loc, d, &x->loc))
		x->loc = UINTPTR_MAX;
}

/* The two expression forms x86-64 code really has: GCC's dynamic stack
 * realignment (CFA = *(rbp - 8), rbp saved at rbp + 0) and glibc's signal
 * trampoline (everything at rsp + N, in the ucontext). Anything else is left
 * to libgcc. */
static int parse_breg(struct cur *c, uint64_t len, uint8_t *base, int64_t *off, int *deref)
{
	struct cur e;
	uint8_t op;
	if (len > (size_t)(c->end - c->p))
		return -1;
	e.p = c->p;
	e.end = c->p + len;
	c->p = e.end;
	if (rd_u8(&e, &op) || (op != DW_OP_breg6 && op != DW_OP_breg7) || rd_sleb(&e, off))
		return -2;
	*base = op == DW_OP_breg6 ? BASE_RBP : BASE_RSP;
	*deref = 0;
	if (e.p < e.end) {
		if (rd_u8(&e, &op) || op != DW_OP_deref)
			return -2;
		*deref = 1;
	}
	return e.p == e.end ? 0 : -2;
}

/* Runs a CFA program while the location is not past q: the row in effect at
 * q. Returns -1 on an operation we do not implement or malformed data. */
static int run_cfa(struct cur c, struct exec *x, struct row *row)
{
	const struct cie *ci = x->ci;
	while (c.p < c.end && x->loc <= x->q) {
		uint8_t op, b, base;
		uint16_t u16;
		uint32_t u32;
		uint64_t reg, u, len;
		int64_t s, off;
		int deref, r;

		rd_u8(&c, &op);
		switch (op >> 6) {
		case 1: /* advance_loc */
			advance(x, op & 0x3f);
			continue;
		case 2: /* offset */
			if (rd_uleb(&c, &u))
				return -1;
			set_saved(row, x, op & 0x3f, u > (1ull << 32) ? INT64_MAX : (int64_t)u);
			continue;
		case 3:
			restore(row, x, op & 0x3f);
			continue;
		}
		switch (op) {
		case 0x00: /* nop */
			break;
		case 0x02: /* advance_loc1 */
			if (rd_u8(&c, &b))
				return -1;
			advance(x, b);
			break;
		case 0x03:
			if (rd_bytes(&c, &u16, 2))
				return -1;
			advance(x, u16);
			break;
		case 0x04:
			if (rd_bytes(&c, &u32, 4))
				return -1;
			advance(x, u32);
			break;
		case 0x05: /* offset_extended */
			if (rd_uleb(&c, &reg) || rd_uleb(&c, &u))
				return -1;
			set_saved(row, x, reg, u > (1ull << 32) ? INT64_MAX : (int64_t)u);
			break;
		case 0x2f: /* GNU_negative_offset_extended */
			if (rd_uleb(&c, &reg) || rd_uleb(&c, &u))
				return -1;
			set_saved(row, x, reg, u > (1ull << 32) ? INT64_MIN : -(int64_t)u);
			break;
		case 0x11: /* offset_extended_sf */
			if (rd_uleb(&c, &reg) || rd_sleb(&c, &s))
				return -1;
			set_saved(row, x, reg, s);
			break;
		case 0x06: /* restore_extended */
			if (rd_uleb(&c, &reg))
				return -1;
			restore(row, x, reg);
			break;
		case 0x07: /* undefined */
			if (rd_uleb(&c, &reg))
				return -1;
			set_rule(row, x, reg, reg == ci->ra_col ? HOW_UNDEF : HOW_SAME, 0, 0);
			break;
		case 0x08: /* same_value */
			if (rd_uleb(&c, &reg))
				return -1;
			set_rule(row, x, reg, HOW_SAME, 0, 0);
			break;
		case 0x09: /* register: saved in another register we do not track */
			if (rd_uleb(&c, &reg) || rd_uleb(&c, &u))
				return -1;
			set_rule(row, x, reg, HOW_BAD, 0, 0);
			break;
		case 0x14: /* val_offset */
		case 0x15: /* val_offset_sf */
			if (rd_uleb(&c, &reg) || (op == 0x14 ? rd_uleb(&c, &u) : rd_sleb(&c, &s)))
				return -1;
			set_rule(row, x, reg, HOW_BAD, 0, 0);
			break;
		case 0x0a: /* remember_state: the whole row, CFA included */
			if (x->depth >= REMEMBER_MAX)
				return -1;
			x->saved[x->depth++] = *row;
			break;
		case 0x0b: /* restore_state */
			if (x->depth <= 0)
				return -1;
			*row = x->saved[--x->depth];
			break;
		case 0x0c: /* def_cfa */
			if (rd_uleb(&c, &reg) || rd_uleb(&c, &u))
				return -1;
			row->cfa_reg = reg;
			row->cfa_off = u > (1ull << 32) ? INT64_MAX : (int64_t)u;
			row->cfa_deref = row->cfa_bad = 0;
			break;
		case 0x12: /* def_cfa_sf */
			if (rd_uleb(&c, &reg) || rd_sleb(&c, &s))
				return -1;
			row->cfa_reg = reg;
			row->cfa_off =
			    s < -(1ll << 32) || s > (1ll << 32) ? INT64_MAX : s * ci->data_align;
			row->cfa_deref = row->cfa_bad = 0;
			break;
		case 0x0d: /* def_cfa_register: keeps the offset of a reg+offset rule */
			if (rd_uleb(&c, &reg))
				return -1;
			row->cfa_reg = reg;
			if (row->cfa_deref)
				row->cfa_bad = 1;
			break;
		case 0x0e: /* def_cfa_offset */
			if (rd_uleb(&c, &u))
				return -1;
			row->cfa_off = u > (1ull << 32) ? INT64_MAX : (int64_t)u;
			if (row->cfa_deref)
				row->cfa_bad = 1;
			break;
		case 0x13: /* def_cfa_offset_sf */
			if (rd_sleb(&c, &s))
				return -1;
			row->cfa_off =
			    s < -(1ll << 32) || s > (1ll << 32) ? INT64_MAX : s * ci->data_align;
			if (row->cfa_deref)
				row->cfa_bad = 1;
			break;
		case 0x0f: /* def_cfa_expression */
			if (rd_uleb(&c, &len))
				return -1;
			r = parse_breg(&c, len, &base, &off, &deref);
			if (r == -1)
				return -1;
			row->cfa_bad = r != 0;
			row->cfa_reg = base == BASE_RBP ? DW_RBP : DW_RSP;
			row->cfa_off = off;
			row->cfa_deref = (uint8_t)deref;
			break;
		case 0x10: /* expression: the block computes the save address */
			if (rd_uleb(&c, &reg) || rd_uleb(&c, &len))
				return -1;
			r = parse_breg(&c, len, &base, &off, &deref);
			if (r == -1)
				return -1;
			if (r || deref)
				set_rule(row, x, reg, HOW_BAD, 0, 0);
			else
				set_rule(row, x, reg, HOW_AT, base, off);
			break;
		case 0x16: /* val_expression */
			if (rd_uleb(&c, &reg) || rd_uleb(&c, &len) || len > (size_t)(c.end - c.p))
				return -1;
			c.p += len;
			set_rule(row, x, reg, HOW_BAD, 0, 0);
			break;
		case 0x2e: /* GNU_args_size: only matters to landing pads */
			if (rd_uleb(&c, &u))
				return -1;
			break;
		default: /* set_loc, GNU_window_save, vendor extensions */
			return -1;
		}
	}
	return 0;
}

static int fits32(int64_t v)
{
	return v >= INT32_MIN && v <= INT32_MAX;
}

static int reg_to_rule(const struct reg_rule *t, uint8_t *base, int32_t *off)
{
	if (t->how != HOW_AT || !fits32(t->off))
		return -1;
	*base = t->base;
	*off = (int32_t)t->off;
	return 0;
}

static void make_rule(const struct row *row, int signal, struct rule *r)
{
	const struct reg_rule *ra = &row->regs[T_RA], *rbp = &row->regs[T_RBP],
	                      *rsp = &row->regs[T_RSP];
	r->kind = KIND_UNSUPPORTED;
	if (ra->how == HOW_UNDEF) {
		r->kind = KIND_END;
		return;
	}
	if (row->cfa_bad || (row->cfa_reg != DW_RSP && row->cfa_reg != DW_RBP) ||
	    !fits32(row->cfa_off))
		return;
	r->cfa_base = row->cfa_reg == DW_RSP ? BASE_RSP : BASE_RBP;
	r->cfa_off = (int32_t)row->cfa_off;
	r->cfa_deref = row->cfa_deref;
	if (reg_to_rule(ra, &r->ra_base, &r->ra_off))
		return;
	switch (rbp->how) {
	case HOW_UNSET:
	case HOW_SAME:
		r->rbp_base = BASE_NONE;
		r->rbp_off = 0;
		break;
	default:
		if (reg_to_rule(rbp, &r->rbp_base, &r->rbp_off))
			return;
	}
	/* The caller's rsp is the CFA; a rule for rsp is only understood when
	 * it says the same, as a signal frame's does (saved where the CFA is
	 * loaded from). */
	if (rsp->how == HOW_AT &&
	    !(row->cfa_deref && rsp->off == row->cfa_off && rsp->base == r->cfa_base))
		return;
	if (rsp->how == HOW_BAD)
		return;
	r->kind = signal ? KIND_SIGNAL : KIND_FRAME;
}

/* The FDE covering q in the object's sorted .eh_frame_hdr table. Returns 1
 * with the FDE's address, 0 if there is none (the stack ends there, as for
 * libgcc), -1 if the table is not in the form we binary-search. */
static int find_fde(uintptr_t q, const struct obj *o, const uint8_t *hdr, uintptr_t *fde)
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

/* The rule for the frame whose lookup address is q (pc - 1 for a return
 * address). *cacheable is cleared for answers that could change while the
 * program runs: pc in no object (something may be loaded there later). */
static void compute_rule(uintptr_t q, struct rule *r, int *cacheable)
{
	struct dl_find_object fo;
	struct obj o;
	struct cie ci;
	struct cur c;
	uintptr_t fde, id_at, start, range;
	uint32_t id;
	uint64_t len;
	struct row init, row;
	struct exec x;

	*r = (struct rule){.kind = KIND_UNSUPPORTED};
	*cacheable = 1;
	if (_dl_find_object((void *)q, &fo) != 0) {
		/* JIT code, whose CFI libgcc may know from __register_frame, or
		 * a corrupt return address: libgcc's call either way. */
		*cacheable = 0;
		return;
	}
	if (!fo.dlfo_eh_frame) {
		r->kind = KIND_END; /* libgcc stops here too */
		return;
	}
	o.lo = (uintptr_t)fo.dlfo_map_start;
	o.hi = (uintptr_t)fo.dlfo_map_end;
	int found = find_fde(q, &o, fo.dlfo_eh_frame, &fde);
	if (found <= 0) {
		if (found == 0)
			r->kind = KIND_END;
		return;
	}
	if (rd_record(&o, fde, &c, &id, &id_at) || id == 0 || parse_cie(&o, id_at - id, &ci))
		return;
	if (rd_encoded(&c, ci.fde_enc, 0, &start) ||
	    rd_encoded(&c, ci.fde_enc & PE_FMT_MASK, 0, &range))
		return;
	if (q < start || q - start >= range) {
		r->kind = KIND_END;
		return;
	}
	if (ci.has_z) {
		if (rd_uleb(&c, &len) || len > (size_t)(c.end - c.p))
			return;
		c.p += len;
	}
	__builtin_memset(&init, 0, sizeof(init));
	init.cfa_bad = 1; /* until the CIE defines it */
	x.ci = &ci;
	x.loc = start;
	x.q = q;
	x.init = NULL;
	x.depth = 0;
	if (run_cfa(ci.insn, &x, &init))
		return;
	row = init;
	x.init = &init;
	x.depth = 0;
	if (run_cfa(c, &x, &row))
		return;
	make_rule(&row, ci.signal, r);
}

/* A word of the stack above our own frame, where every frame we unwind
 * keeps its saved registers: always mapped, never another thread's. */
static inline int load(uintptr_t a, uintptr_t lo, uintptr_t hi, uintptr_t *v)
{
	if (a < lo || a > hi - sizeof(uintptr_t))
		return -1;
	*v = *(const uintptr_t *)a;
	return 0;
}

static inline uintptr_t base_of(unsigned base, uintptr_t cfa, uintptr_t sp, uintptr_t bp)
{
	return base == BASE_CFA ? cfa : base == BASE_RSP ? sp : bp;
}

/* The cache missed: derive the rule from the CFI, and keep it. */
__attribute__((noinline)) static struct packed lookup_slow(uintptr_t q, uint64_t gen)
{
	struct rule r;
	int cacheable;
	compute_rule(q, &r, &cacheable);
	struct packed p = pack(&r);
	p.w1 |= gen << P_GEN_SHIFT;
	if (cacheable)
		cache_put(q, p);
	return p;
}

__attribute__((noinline)) int unwind_fast(uintptr_t *pcs, int max, int skip)
{
	uintptr_t pc, sp, bp, stack_lo, stack_hi;
	/* Our own registers at one instruction, described exactly by our own
	 * CFI there, whatever the compiler made of this frame. */
	__asm__ volatile("lea 0(%%rip), %0\n\t"
	                 "mov %%rsp, %1\n\t"
	                 "mov %%rbp, %2"
	                 : "=r"(pc), "=r"(sp), "=r"(bp));
	if (max <= 0)
		return 0;
	if (stack_bounds(&stack_lo, &stack_hi) != 0 || sp < stack_lo || sp >= stack_hi ||
	    stack_hi - sp < sizeof(uintptr_t))
		return -1;
	const uintptr_t lo = sp, hi = stack_hi;
	const uint64_t gen = __atomic_load_n(&cache_gen, __ATOMIC_ACQUIRE) & P_GEN_MASK;
	if (skip < 0)
		skip = 0;
	if (skip > 4096)
		skip = 4096;
	/* Our frame and our caller's are not reported. */
	int drop = skip + 2, n = 0, exact = 1;
	for (int depth = 0; depth < drop + max; depth++) {
		if (depth >= drop) {
			pcs[n++] = pc;
			if (n == max)
				break;
		}
		uintptr_t q = exact ? pc : pc - 1;
		struct packed r;
		if (q < 4096)
			break; /* no object there: the end, as for libgcc */
		if (unlikely(!cache_get(q, gen, &r)))
			r = lookup_slow(q, gen);
		unsigned kind = P_KIND(r);
		if (kind == KIND_END)
			break;
		if (unlikely(kind == KIND_UNSUPPORTED))
			return -1;

		uintptr_t cfa = base_of(P_CFA_BASE(r), 0, sp, bp) + P_CFA_OFF(r);
		uintptr_t ra, nbp = bp;
		if (P_CFA_DEREF(r) && load(cfa, lo, hi, &cfa))
			goto bad;
		if (cfa <= sp || cfa > hi)
			goto bad;
		if (load(base_of(P_RA_BASE(r), cfa, sp, bp) + P_RA_OFF(r), lo, hi, &ra))
			goto bad;
		if (P_RBP_BASE(r) != BASE_NONE &&
		    load(base_of(P_RBP_BASE(r), cfa, sp, bp) + P_RBP_OFF(r), lo, hi, &nbp))
			goto bad;
		if (!ra)
			break;
		exact = kind == KIND_SIGNAL;
		pc = ra;
		sp = cfa;
		bp = nbp;
		continue;
	bad:
		/* Garbage, or a stack we may not read: stop; with nothing
		 * found yet, let libgcc try. */
		return n ? n : -1;
	}
	return n;
}

#else

int unwind_fast(uintptr_t *pcs, int max, int skip)
{
	(void)pcs;
	(void)max;
	(void)skip;
	return -1;
}

void unwind_cache_flush(void)
{
}

#endif
