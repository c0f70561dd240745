/* A libFuzzer target for the runtime's readers of untrusted bytes: the ELF
 * image reader (section headers, build-id notes, symbol tables), the DWARF
 * line tables and forms, the DWARF units' inlined functions (with their
 * ranges lists, .debug_addr and .debug_str_offsets), the zlib inflater, the
 * .eh_frame/CFI reader (and the check of what libgcc would read) and the
 * C++ demangler. The first byte picks the reader; the rest is its input.
 * Built from the readers' own sources with _stubs.c in place of the OS
 * (check_readers_fuzz.sh); a crash or sanitizer report is a bug in a
 * reader. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../../src/stack/cfi.h"
#include "../../../src/stack/eh_frame.h"
#include "../../../src/symbolize/demangle.h"
#include "../../../src/symbolize/dwarf_info.h"
#include "../../../src/symbolize/dwarf_line.h"
#include "../../../src/symbolize/elf_image.h"
#include "../../../src/symbolize/inflate.h"

static volatile uintptr_t sink;

static uint64_t word(const uint8_t *d, size_t n, size_t at)
{
	uint64_t v = 0;
	for (size_t i = 0; i < 8 && at + i < n; i++)
		v |= (uint64_t)d[at + i] << (8 * i);
	return v;
}

/* The chain of functions inlined at addr: at most max, each holding addr,
 * each string ended within its field. */
static void inlines(const unsigned char *img, size_t n, uint64_t addr, int max)
{
	static struct dwarf_inline in[DWARF_INLINES_MAX];
	static char outer[256];
	int got = dwarf_inlines(img, n, addr, in, max, outer, sizeof(outer));
	if (got < -1 || got > max || !memchr(outer, 0, sizeof(outer)))
		abort();
	sink += strlen(outer);
	for (int i = 0; i < got; i++) {
		if (!memchr(in[i].name, 0, sizeof(in[i].name)) ||
		    !memchr(in[i].call, 0, sizeof(in[i].call)) ||
		    !memchr(in[i].decl, 0, sizeof(in[i].decl)) || addr < in[i].lo ||
		    addr >= in[i].hi)
			abort();
		sink += strlen(in[i].name) + strlen(in[i].call) + strlen(in[i].decl);
	}
}

/* An ELF file: what symbolize.c, dwarf_line.c and dwarf_info.c read of
 * it. */
static void elf(const uint8_t *d, size_t n)
{
	/* a copy, aligned as a mapped file is */
	unsigned char *img = malloc(n ? n : 1);
	memcpy(img, d, n);
	struct elf_symtab t;
	int has_debug = 0;
	elf_symtab(img, n, &t, &has_debug);
	uint64_t addrs[8];
	for (int i = 0; i < 8; i++) {
		addrs[i] = (word(d, n, 0x18) & 0xffffff) + 0x20 * i; /* from e_entry on */
		if (i >= 4 && n >= 8 * (size_t)(i - 3))
			addrs[i] = word(d, n, n - 8 * (size_t)(i - 3)) & 0xffffff;
		const ElfW(Sym) *s = elf_find_symbol(&t, addrs[i]);
		if (s)
			sink += strlen(t.strs + s->st_name);
	}
	const unsigned char *id;
	size_t len;
	if (elf_build_id(img, n, 63, &id, &len))
		for (size_t i = 0; i < len; i++)
			sink += id[i];
	static char out[8][160];
	if (dwarf_lines(img, n, addrs, 8, out[0], sizeof(out[0])) == 0)
		for (int i = 0; i < 8; i++)
			sink += strlen(out[i]);
	/* from DWARF_INLINES_MAX down to 1 frames asked for, by the last
	 * byte (which the addresses above leave out) */
	int max = DWARF_INLINES_MAX - (n ? d[n - 1] % DWARF_INLINES_MAX : 0);
	for (int i = 0; i < 8; i++)
		inlines(img, n, addrs[i], max);
	dwarf_forget(img, n); /* the next input may come at the same address */
	free(img);
}

static void inflate(const uint8_t *d, size_t n)
{
	static unsigned char out[1 << 16];
	size_t cap = n ? d[0] % 2 ? sizeof(out) : 1 + d[0] * 64u : 0;
	long got = zlib_inflate(d, n, out, cap);
	if (got > (long)cap)
		abort();
}

static void demangle(const uint8_t *d, size_t n)
{
	char name[4096], out[2048];
	size_t cap = n ? 1 + d[0] * 8u : 1;
	if (n)
		d++, n--;
	if (n >= sizeof(name))
		n = sizeof(name) - 1;
	memcpy(name, d, n);
	name[n] = 0;
	if (cap > sizeof(out))
		cap = sizeof(out);
	if (!cxx_demangle(name, out, cap) && strlen(out) >= cap)
		abort();
	if (!cxx_demangle_name(name, out, cap) && strlen(out) >= cap)
		abort();
}

/* An object's loaded image: 4 bytes of .eh_frame_hdr offset, 4 of the pc's
 * offset, then the image (its addresses are its offsets). */
static void cfi(const uint8_t *d, size_t n)
{
	if (n < 8)
		return;
	uint32_t hdr = (uint32_t)word(d, 4, 0), pc = (uint32_t)word(d, 8, 4);
	d += 8;
	n -= 8;
	unsigned char *img = malloc(n ? n : 1);
	memcpy(img, d, n);
	struct obj o = {(uintptr_t)img, (uintptr_t)img + n};
	struct rule r;
	if (n)
		cfi_rule_in(o.lo + pc % n, &o, img + hdr % n, &r);
	else
		cfi_rule_in(o.lo, &o, img, &r);
	sink += r.kind;
	/* what stack.c checks before libgcc reads an FDE */
	if (n)
		sink += eh_fde_sane(&o, o.lo + pc % n);
	free(img);
}

static void notes(const uint8_t *d, size_t n)
{
	const unsigned char *id;
	size_t len;
	if (elf_notes_build_id(d, n, 20, &id, &len))
		for (size_t i = 0; i < len; i++)
			sink += id[i];
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!size)
		return 0;
	switch (data[0] % 5) {
	case 0:
		elf(data + 1, size - 1);
		break;
	case 1:
		inflate(data + 1, size - 1);
		break;
	case 2:
		demangle(data + 1, size - 1);
		break;
	case 3:
		cfi(data + 1, size - 1);
		break;
	case 4:
		notes(data + 1, size - 1);
		break;
	}
	return 0;
}
