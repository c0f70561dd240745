/* file:line from the DWARF line tables of an ELF image mapped in memory,
 * without starting llvm-symbolizer: reports must stay fast under fuzzers and
 * possible in sandboxes. No allocation, no locks, no stdio; every offset is
 * checked against the image, so a corrupt file gives no answer, not a
 * crash. Names are built as llvm-symbolizer --output-style=GNU prints them. */
#ifndef UKASAN_SYMBOLIZE_DWARF_LINE_H
#define UKASAN_SYMBOLIZE_DWARF_LINE_H

#include <stddef.h>
#include <stdint.h>

/* For each addrs[i] (a link-time address), "DIR/FILE:LINE" in
 * out + i * stride (stride bytes at most), or "" when no row covers it or
 * its line is 0. All addresses are found in one pass over the line programs.
 * 0 when the image's tables were read; -1 when they cannot be (no
 * .debug_line, zstd-compressed sections, an unsupported version or form, a
 * corrupt table), so that the caller asks another symbolizer. n <= 64. */
int dwarf_lines(const unsigned char *elf, size_t size, const uint64_t *addrs, int n, char *out,
                size_t stride);

/* Forget what was decompressed from the image at elf before it is
 * unmapped. */
void dwarf_forget(const unsigned char *elf, size_t size);

/* Section name of the image (dwarf_sections.c); 0 when found. A
 * compressed one is inflated as far as dwarf_cover is asked to, or, with
 * inflate 0, left out. */
struct dw_sec;
struct dw_secs;
int dwarf_section(const unsigned char *elf, size_t size, const char *name, struct dw_sec *s,
                  int inflate);
/* The name of file idx of the line table at stmt, as the line reader
 * prints it; 0 when there is none. */
int dwarf_file_name(const struct dw_secs *d, uint64_t stmt, const char *comp_dir, uint64_t idx,
                    char *buf, size_t cap);

#endif
