/* The rule that steps over one frame, derived from the DWARF call frame
 * information of the object the pc is in. */
#ifndef UKASAN_STACK_CFI_H
#define UKASAN_STACK_CFI_H

#include <stdint.h>

/* Where a value is found: at the CFA or a register of the frame, plus an
 * offset. BASE_NONE: the register keeps its value in the caller; for the
 * return address, it is still in the link register. */
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

/* The rule for the frame whose lookup address is q (pc - 1 for a return
 * address). *cacheable is cleared for answers that could change while the
 * program runs: pc in no object (something may be loaded there later). */
void cfi_rule(uintptr_t q, struct rule *r, int *cacheable);

/* The pages of the unwind tables (.eh_frame_hdr to the end of its
 * segment: .eh_frame, .gcc_except_table) of the object q is in, which a
 * walk may give back to the OS once it has read them: 0 and [lo, hi) page
 * aligned, or -1 where that would not be safe (a segment that is also
 * writable or executable, under RELRO, in an object with text relocations:
 * pages that may have been written, or that the program runs). The kernel
 * maps 64 KiB of a file around each page read, so a sampled stack through a
 * large program's frames left most of its .eh_frame resident (git: 340
 * KiB). */
struct cfi_span {
	uintptr_t lo, hi;
};
int cfi_tables_of(uintptr_t q, struct cfi_span *span);

/* The same within one object's readable extent, given its .eh_frame_hdr:
 * the part that reads only memory, for the fuzz target as well. */
struct obj;
void cfi_rule_in(uintptr_t q, const struct obj *o, const uint8_t *eh_frame_hdr, struct rule *r);

#endif
