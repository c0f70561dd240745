/* Executing a CFA program up to a pc, for the registers the unwinder
 * follows (the frame pointer, the stack pointer, the return address), and
 * turning the row in effect there into a rule. The register numbers and
 * expression opcodes are the architecture's (arch.h). */
#define _GNU_SOURCE
#include "cfi.h"

#include <dlfcn.h>
#include <elf.h>
#include <link.h>
#include <stddef.h>

#include "../arch/arch.h"
#include "../base/compiler.h"
#include "../platform/dynlink.h"
#include "../platform/os.h"
#include "eh_frame.h"

#if ARCH_HAS_UNWINDER

#define DW_OP_deref  0x06
#define REMEMBER_MAX 8

/* DWARF call frame instructions (DWARF 5, 6.4.2, and the GNU extensions).
 * The first three carry their operand in the low six bits. */
enum dw_cfa {
	DW_CFA_advance_loc = 0x40,
	DW_CFA_offset = 0x80,
	DW_CFA_restore = 0xc0,
	DW_CFA_nop = 0x00,
	DW_CFA_advance_loc1 = 0x02,
	DW_CFA_advance_loc2 = 0x03,
	DW_CFA_advance_loc4 = 0x04,
	DW_CFA_offset_extended = 0x05,
	DW_CFA_restore_extended = 0x06,
	DW_CFA_undefined = 0x07,
	DW_CFA_same_value = 0x08,
	DW_CFA_register = 0x09,
	DW_CFA_remember_state = 0x0a,
	DW_CFA_restore_state = 0x0b,
	DW_CFA_def_cfa = 0x0c,
	DW_CFA_def_cfa_register = 0x0d,
	DW_CFA_def_cfa_offset = 0x0e,
	DW_CFA_def_cfa_expression = 0x0f,
	DW_CFA_expression = 0x10,
	DW_CFA_offset_extended_sf = 0x11,
	DW_CFA_def_cfa_sf = 0x12,
	DW_CFA_def_cfa_offset_sf = 0x13,
	DW_CFA_val_offset = 0x14,
	DW_CFA_val_offset_sf = 0x15,
	DW_CFA_val_expression = 0x16,
	DW_CFA_GNU_args_size = 0x2e,
	DW_CFA_GNU_negative_offset_extended = 0x2f,
};
#define DW_CFA_HIGH_MASK 0xc0
#define DW_CFA_LOW_MASK  0x3f

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
	if (reg == DW_REG_FP)
		return T_RBP;
	if (reg == DW_REG_SP)
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
 * trampoline (everything at rsp + N, in the ucontext). Anything else ends
 * the stack (unwind_anywhere) or leaves it to the guarded walk. */
static int parse_breg(struct cur *c, uint64_t len, uint8_t *base, int64_t *off, int *deref)
{
	struct cur e;
	uint8_t op;
	if (len > (size_t)(c->end - c->p))
		return -1;
	e.p = c->p;
	e.end = c->p + len;
	c->p = e.end;
	if (rd_u8(&e, &op) || (op != DW_OP_BREG_FP && op != DW_OP_BREG_SP) || rd_sleb(&e, off))
		return -2;
	*base = op == DW_OP_BREG_FP ? BASE_RBP : BASE_RSP;
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
		switch (op & DW_CFA_HIGH_MASK) {
		case DW_CFA_advance_loc:
			advance(x, op & DW_CFA_LOW_MASK);
			continue;
		case DW_CFA_offset:
			if (rd_uleb(&c, &u))
				return -1;
			set_saved(row, x, op & DW_CFA_LOW_MASK,
			          u > (1ull << 32) ? INT64_MAX : (int64_t)u);
			continue;
		case DW_CFA_restore:
			restore(row, x, op & DW_CFA_LOW_MASK);
			continue;
		}
		switch (op) {
		case DW_CFA_nop:
			break;
		case DW_CFA_advance_loc1:
			if (rd_u8(&c, &b))
				return -1;
			advance(x, b);
			break;
		case DW_CFA_advance_loc2:
			if (rd_bytes(&c, &u16, 2))
				return -1;
			advance(x, u16);
			break;
		case DW_CFA_advance_loc4:
			if (rd_bytes(&c, &u32, 4))
				return -1;
			advance(x, u32);
			break;
		case DW_CFA_offset_extended:
			if (rd_uleb(&c, &reg) || rd_uleb(&c, &u))
				return -1;
			set_saved(row, x, reg, u > (1ull << 32) ? INT64_MAX : (int64_t)u);
			break;
		case DW_CFA_GNU_negative_offset_extended:
			if (rd_uleb(&c, &reg) || rd_uleb(&c, &u))
				return -1;
			set_saved(row, x, reg, u > (1ull << 32) ? INT64_MIN : -(int64_t)u);
			break;
		case DW_CFA_offset_extended_sf:
			if (rd_uleb(&c, &reg) || rd_sleb(&c, &s))
				return -1;
			set_saved(row, x, reg, s);
			break;
		case DW_CFA_restore_extended:
			if (rd_uleb(&c, &reg))
				return -1;
			restore(row, x, reg);
			break;
		case DW_CFA_undefined:
			if (rd_uleb(&c, &reg))
				return -1;
			set_rule(row, x, reg, reg == ci->ra_col ? HOW_UNDEF : HOW_SAME, 0, 0);
			break;
		case DW_CFA_same_value:
			if (rd_uleb(&c, &reg))
				return -1;
			set_rule(row, x, reg, HOW_SAME, 0, 0);
			break;
		case DW_CFA_register: /* saved in another register we do not track */
			if (rd_uleb(&c, &reg) || rd_uleb(&c, &u))
				return -1;
			set_rule(row, x, reg, HOW_BAD, 0, 0);
			break;
		case DW_CFA_val_offset:
		case DW_CFA_val_offset_sf:
			if (rd_uleb(&c, &reg) ||
			    (op == DW_CFA_val_offset ? rd_uleb(&c, &u) : rd_sleb(&c, &s)))
				return -1;
			set_rule(row, x, reg, HOW_BAD, 0, 0);
			break;
		case DW_CFA_remember_state: /* the whole row, CFA included */
			if (x->depth >= REMEMBER_MAX)
				return -1;
			x->saved[x->depth++] = *row;
			break;
		case DW_CFA_restore_state:
			if (x->depth <= 0)
				return -1;
			*row = x->saved[--x->depth];
			break;
		case DW_CFA_def_cfa:
			if (rd_uleb(&c, &reg) || rd_uleb(&c, &u))
				return -1;
			row->cfa_reg = reg;
			row->cfa_off = u > (1ull << 32) ? INT64_MAX : (int64_t)u;
			row->cfa_deref = row->cfa_bad = 0;
			break;
		case DW_CFA_def_cfa_sf:
			if (rd_uleb(&c, &reg) || rd_sleb(&c, &s))
				return -1;
			row->cfa_reg = reg;
			row->cfa_off =
			    s < -(1ll << 32) || s > (1ll << 32) ? INT64_MAX : s * ci->data_align;
			row->cfa_deref = row->cfa_bad = 0;
			break;
		case DW_CFA_def_cfa_register: /* keeps the offset of a reg+offset rule */
			if (rd_uleb(&c, &reg))
				return -1;
			row->cfa_reg = reg;
			if (row->cfa_deref)
				row->cfa_bad = 1;
			break;
		case DW_CFA_def_cfa_offset:
			if (rd_uleb(&c, &u))
				return -1;
			row->cfa_off = u > (1ull << 32) ? INT64_MAX : (int64_t)u;
			if (row->cfa_deref)
				row->cfa_bad = 1;
			break;
		case DW_CFA_def_cfa_offset_sf:
			if (rd_sleb(&c, &s))
				return -1;
			row->cfa_off =
			    s < -(1ll << 32) || s > (1ll << 32) ? INT64_MAX : s * ci->data_align;
			if (row->cfa_deref)
				row->cfa_bad = 1;
			break;
		case DW_CFA_def_cfa_expression:
			if (rd_uleb(&c, &len))
				return -1;
			r = parse_breg(&c, len, &base, &off, &deref);
			if (r == -1)
				return -1;
			row->cfa_bad = r != 0;
			row->cfa_reg = base == BASE_RBP ? DW_REG_FP : DW_REG_SP;
			row->cfa_off = off;
			row->cfa_deref = (uint8_t)deref;
			break;
		case DW_CFA_expression: /* the block computes the save address */
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
		case DW_CFA_val_expression:
			if (rd_uleb(&c, &reg) || rd_uleb(&c, &len) || len > (size_t)(c.end - c.p))
				return -1;
			c.p += len;
			set_rule(row, x, reg, HOW_BAD, 0, 0);
			break;
		case DW_CFA_GNU_args_size: /* only matters to landing pads */
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
	if (row->cfa_bad || (row->cfa_reg != DW_REG_SP && row->cfa_reg != DW_REG_FP) ||
	    !fits32(row->cfa_off))
		return;
	r->cfa_base = row->cfa_reg == DW_REG_SP ? BASE_RSP : BASE_RBP;
	r->cfa_off = (int32_t)row->cfa_off;
	r->cfa_deref = row->cfa_deref;
	/* No rule: the return address is still in its register (arm64's
	 * link register, in a leaf or before the prologue saved it), which
	 * only a walk from a signal's registers knows (BASE_NONE). */
	if (ra->how == HOW_UNSET || ra->how == HOW_SAME) {
		r->ra_base = BASE_NONE;
		r->ra_off = 0;
	} else if (reg_to_rule(ra, &r->ra_base, &r->ra_off))
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

/* The program headers of the object mapped at [lo, hi), which are in its
 * first page: their count, or -1 when they are not found there. */
static int phdrs_of(uintptr_t lo, uintptr_t hi, const ElfW(Phdr) * *ph)
{
	const ElfW(Ehdr) *eh = (const void *)lo;
	size_t span = hi - lo, first = span < 4096 ? span : 4096;
	if (first < sizeof(*eh) || __builtin_memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
	    eh->e_phentsize != sizeof(ElfW(Phdr)) || eh->e_phoff > first ||
	    (first - eh->e_phoff) / sizeof(ElfW(Phdr)) < eh->e_phnum ||
	    eh->e_phoff % _Alignof(ElfW(Phdr)))
		return -1;
	*ph = (const void *)(lo + eh->e_phoff);
	return eh->e_phnum;
}

/* The loaded segment holding the .eh_frame_hdr (and in every layout the
 * linkers make, .eh_frame with it): the object's extent may have gaps
 * with no access between its segments, and a corrupt table must not send
 * the reader there. -1 (o unchanged) when the program headers are not
 * found. */
static int eh_segment(struct obj *o, uintptr_t bias, uintptr_t hdr)
{
	const ElfW(Phdr) * ph;
	uintptr_t program_bias;
	int n = phdrs_of(o->lo, o->hi, &ph), within = 1;
	/* Under qemu-user, the loader's extent of the program the emulator
	 * loaded starts at its text, and lld puts .eh_frame_hdr below that:
	 * then the kernel's copy of the program's headers says where it is. */
	if (n < 0 && (n = dl_program_phdrs(&ph, &program_bias)) >= 0) {
		if (program_bias != bias)
			return -1;
		within = 0;
	}
	for (int i = 0; i < n; i++) {
		uintptr_t lo = bias + ph[i].p_vaddr;
		if (ph[i].p_type != PT_LOAD || !(ph[i].p_flags & PF_R) ||
		    (within && (lo < o->lo || lo >= o->hi || ph[i].p_memsz > o->hi - lo)))
			continue;
		if (hdr >= lo && hdr - lo < ph[i].p_memsz) {
			o->hi = lo + ph[i].p_memsz;
			o->lo = lo;
			return 0;
		}
	}
	return -1;
}

/* Whether the object's dynamic section asks for text relocations, which
 * write into its read-only segments at load. */
static int has_textrel(const ElfW(Dyn) * d)
{
	for (int i = 0; d && d[i].d_tag != DT_NULL && i < 4096; i++)
		if (d[i].d_tag == DT_TEXTREL ||
		    (d[i].d_tag == DT_FLAGS && (d[i].d_un.d_val & DF_TEXTREL)))
			return 1;
	return 0;
}

int cfi_tables_of(uintptr_t q, struct cfi_span *span)
{
	struct dl_find_object fo;
	if (_dl_find_object((void *)q, &fo) != 0 || !fo.dlfo_eh_frame || !fo.dlfo_link_map)
		return -1;
	uintptr_t end = (uintptr_t)fo.dlfo_map_end;
	uintptr_t bias = fo.dlfo_link_map->l_addr, hdr = (uintptr_t)fo.dlfo_eh_frame;
	const ElfW(Phdr) * ph;
	int n = phdrs_of((uintptr_t)fo.dlfo_map_start, end, &ph);
	if (n < 0 || has_textrel(fo.dlfo_link_map->l_ld))
		return -1;
	uintptr_t lo = 0, hi = 0;
	for (int i = 0; i < n; i++) {
		uintptr_t a = bias + ph[i].p_vaddr;
		if (ph[i].p_type != PT_LOAD || hdr < a || hdr - a >= ph[i].p_memsz)
			continue;
		if (ph[i].p_flags != PF_R || ph[i].p_memsz > end - a)
			return -1;
		lo = hdr;
		hi = a + ph[i].p_memsz;
	}
	/* whole pages only: the one the table starts in holds .rodata too */
	uintptr_t page = os_page_size();
	lo = (lo + page - 1) & ~(page - 1);
	hi = (hi + page - 1) & ~(page - 1);
	if (!hi || lo >= hi)
		return -1;
	/* and none that another segment shares, or RELRO covers */
	for (int i = 0; i < n; i++) {
		uintptr_t a = (bias + ph[i].p_vaddr) & ~(page - 1),
		          b = bias + ph[i].p_vaddr + ph[i].p_memsz;
		if ((ph[i].p_type == PT_GNU_RELRO ||
		     (ph[i].p_type == PT_LOAD && ph[i].p_flags != PF_R)) &&
		    a < hi && b > lo)
			return -1;
	}
	span->lo = lo;
	span->hi = hi;
	return 0;
}

void cfi_rule(uintptr_t q, struct rule *r, int *cacheable)
{
	struct dl_find_object fo;
	struct obj o;

	*r = (struct rule){.kind = KIND_UNSUPPORTED};
	*cacheable = 1;
	if (_dl_find_object((void *)q, &fo) != 0) {
		/* JIT code, or a corrupt return address: not kept, as code
		 * may be loaded there later. */
		*cacheable = 0;
		return;
	}
	if (!fo.dlfo_eh_frame) {
		r->kind = KIND_END; /* no tables: the stack ends, as for libgcc */
		return;
	}
	o.lo = (uintptr_t)fo.dlfo_map_start;
	o.hi = (uintptr_t)fo.dlfo_map_end;
	/* without its headers where they should be: the whole extent, as
	 * before */
	eh_segment(&o, fo.dlfo_link_map->l_addr, (uintptr_t)fo.dlfo_eh_frame);
	cfi_rule_in(q, &o, fo.dlfo_eh_frame, r);
}

void cfi_rule_in(uintptr_t q, const struct obj *obj, const uint8_t *eh_frame_hdr, struct rule *r)
{
	struct obj o = *obj;
	struct cie ci;
	struct cur c;
	uintptr_t fde, id_at, start, range;
	uint32_t id;
	uint64_t len;
	struct row init, row;
	struct exec x;

	*r = (struct rule){.kind = KIND_UNSUPPORTED};
	int found = find_fde(q, &o, eh_frame_hdr, &fde);
	if (found <= 0) {
		if (found == 0)
			r->kind = KIND_END;
		return;
	}
	if (!eh_fde_sane(&o, fde)) {
		r->kind = KIND_END; /* corrupt: the stack ends before it */
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

#endif
