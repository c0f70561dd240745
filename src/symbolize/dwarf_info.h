/* The functions inlined at an address, from the DWARF units of an ELF image
 * mapped in memory (.debug_info's DW_TAG_inlined_subroutine trees), as
 * llvm-symbolizer --inlining lists them: AddressSanitizer's reports show
 * each inlined function as a frame of its own, and a crash's title and
 * dedup token name the innermost. No allocation, no locks, no stdio; every
 * offset read from the image is checked, so a corrupt file gives no
 * answer, not a crash. */
#ifndef UKASAN_SYMBOLIZE_DWARF_INFO_H
#define UKASAN_SYMBOLIZE_DWARF_INFO_H

#include <stddef.h>
#include <stdint.h>

#define DWARF_INLINES_MAX 16

struct dwarf_inline {
	char name[256];  /* the linkage name (mangled) else the name; "" unknown */
	uint64_t lo, hi; /* the inlined code's range that holds the address */
	char call[160];  /* "DIR/FILE:LINE" of its call, in the next frame out */
	char decl[160];  /* "DIR/FILE" it is declared in, "" unknown */
};

/* The functions inlined at addr (a link-time address) in the image at elf,
 * innermost first, the innermost max of them: their number, 0 when none (or no debug
 * information), -1 when the units cannot be read. The entry point that
 * tests/fuzz feeds with corrupt images. outer (NULL: not wanted) gets the
 * name of the function the code is in, found the same way ("" unknown):
 * the name GCC's AddressSanitizer (libbacktrace) gives a frame, which is
 * not always the symbol's (a function in an anonymous namespace has no
 * linkage name from GCC: "ReconstructGlyf"). */
int dwarf_inlines(const unsigned char *elf, size_t size, uint64_t addr, struct dwarf_inline *out,
                  int max, char *outer, size_t ocap);

#endif
