/* What dwarf_info.c shares with dwarf_ranges.c: the sections, a unit and
 * an entry as the lookup of inlined functions reads them. */
#ifndef UKASAN_SYMBOLIZE_DWARF_INFO_IMPL_H
#define UKASAN_SYMBOLIZE_DWARF_INFO_IMPL_H

#include <stddef.h>
#include <stdint.h>

#include "dwarf_form.h"

/* The DWARF numbers this reader adds to dwarf_form.h's. */
enum {
	TAG_lexical_block = 0x0b,
	TAG_compile_unit = 0x11,
	TAG_inlined_subroutine = 0x1d,
	TAG_subprogram = 0x2e,
	TAG_partial_unit = 0x3c,
	AT_sibling = 0x01,
	AT_name = 0x03,
	AT_low_pc = 0x11,
	AT_high_pc = 0x12,
	AT_abstract_origin = 0x31,
	AT_specification = 0x47,
	AT_ranges = 0x55,
	AT_call_file = 0x58,
	AT_call_line = 0x59,
	AT_decl_file = 0x3a,
	AT_linkage_name = 0x6e,
	AT_str_offsets_base = 0x72,
	AT_addr_base = 0x73,
	AT_rnglists_base = 0x74,
	AT_MIPS_linkage_name = 0x2007,
	AT_GNU_addr_base = 0x2133,
	DEPTH_MAX = 64, /* of a unit's tree that is followed */
	NONE = 0,
};

struct secs {
	struct dw_secs d; /* line, info, abbrev, str, line_str */
	struct dw_sec addr, str_offsets, ranges, rnglists;
};

/* A unit: where it lies in .debug_info and the bases its indexed forms
 * count from (DWARF 5, clang's strx/addrx/rnglistx). */
struct unit {
	struct dw_unit u;
	uint64_t start, dies, end; /* offsets in .debug_info */
	uint64_t abbrev_off;
	uint64_t low; /* the base of its ranges */
	uint64_t str_base, addr_base, rng_base, stmt;
	int has_str_base, has_addr_base, has_rng_base, has_stmt;
	const char *comp;
};

/* The attributes of one entry that a lookup reads. */
struct die {
	uint64_t off, tag;
	int children;
	uint64_t low, high, ranges, sibling, origin, spec, call_file, call_line, decl_file;
	int has_low, has_high, high_is_size, has_ranges, ranges_indexed;
	uint64_t name_form, linkage_form;
	struct dw_val name, linkage;
};

/* Entry idx of the unit's .debug_addr table; 0 when out of it. */
int dwi_addr_at(const struct secs *s, const struct unit *cu, uint64_t idx, uint64_t *v);
/* A name attribute's string, through .debug_str_offsets for strx forms. */
const char *dwi_string_of(const struct secs *s, const struct unit *cu, uint64_t form,
                          const struct dw_val *v);
/* Whether entry e's code holds addr, and the range that does. */
int dwi_holds(const struct secs *s, const struct unit *cu, const struct die *e, uint64_t addr,
              uint64_t *lo, uint64_t *hi);

#endif
