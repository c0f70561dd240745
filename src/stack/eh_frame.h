/* Reading .eh_frame: bounded readers, pointer encodings, CIEs, and the
 * sorted .eh_frame_hdr table. Architecture-neutral; the unwinder's rules
 * come from cfi.c. */
#ifndef UKASAN_STACK_EH_FRAME_H
#define UKASAN_STACK_EH_FRAME_H

#include <stddef.h>
#include <stdint.h>

#define PE_OMIT      0xff
#define PE_ABS       0x00
#define PE_PCREL     0x10
#define PE_DATAREL   0x30
#define PE_ALIGNED   0x50
#define PE_INDIRECT  0x80
#define PE_APP_MASK  0x70
#define PE_FMT_MASK  0x0f
#define PE_HDR_TABLE (PE_DATAREL | 0x0b) /* datarel | sdata4: the sorted table */
#define AUG_MAX      8

/* Bounded readers of .eh_frame data: each fails rather than read past end. */
struct cur {
	const uint8_t *p, *end;
};

/* The extent of the object the pc is in: every .eh_frame pointer must stay
 * inside it, so corrupt data cannot send us to arbitrary addresses. */
struct obj {
	uintptr_t lo, hi;
};

struct cie {
	uint64_t code_align;
	int64_t data_align;
	uint64_t ra_col;
	uint8_t fde_enc, has_z, signal;
	struct cur insn;
};

int rd_bytes(struct cur *c, void *v, size_t n);
int rd_u8(struct cur *c, uint8_t *v);
int rd_uleb(struct cur *c, uint64_t *v);
int rd_sleb(struct cur *c, int64_t *v);
/* A DW_EH_PE-encoded value. */
int rd_encoded(struct cur *c, uint8_t enc, uintptr_t datarel, uintptr_t *v);
/* A CIE or FDE at at: its body and the address of its id field. */
int rd_record(const struct obj *o, uintptr_t at, struct cur *body, uint32_t *id, uintptr_t *id_at);
int parse_cie(const struct obj *o, uintptr_t at, struct cie *ci);
/* The FDE covering q: 1 with its address, 0 if none, -1 if the table is
 * not in the form we search. */
int find_fde(uintptr_t q, const struct obj *o, const uint8_t *hdr, uintptr_t *fde);
/* 1 when the FDE at fde and its CIE are well formed (eh_check.c); 0 for
 * a corrupt one, before which the stack ends. */
int eh_fde_sane(const struct obj *o, uintptr_t fde);

#endif
