/* Software tags: tagged globals, for modules clang built with
 * -hwasan-globals=1 (ukasan-cc UKASAN_MODE=sw_tags UKASAN_CC=clang-16).
 *
 * clang gives each global of such a module a static tag: every reference
 * to the global carries it in the address's top byte (the relocations add
 * it), and the global is padded to whole 16-byte granules. What the
 * compiler cannot do is tag the memory: the module lists its globals in a
 * section of descriptors, and an ELF note ("LLVM", type 3) in a PT_NOTE
 * segment gives that section's bounds, so that a runtime finds them from
 * the program headers alone. We read the notes of the modules loaded at
 * start-up, once the tag shadow is there, and set each global's granules
 * to its tag. A read past a global then meets the next global's tag (or
 * 00, memory no one tagged) and is reported as any other mismatch.
 *
 * The format (LLVM's HWAddressSanitizer pass and compiler-rt's hwasan
 * runtime agree on it; described here, not taken from either):
 *   note:  namesz 8, descsz 8, type 3, name "LLVM\0\0\0\0",
 *          desc { int32 begin, int32 end }, both relative to the note's
 *          own first byte: the descriptors' bounds;
 *   descriptor: { int32 rel, uint32 info }: the global at the
 *          descriptor's address + rel, its size in info's low 24 bits, its
 *          tag in the top 8. A global of 16 MiB or more has several
 *          descriptors, one per piece.
 *
 * GCC tags no globals: for its modules there is no note and nothing here
 * happens. dl_iterate_phdr takes the dynamic linker's lock: this runs at
 * set-up only (sw_tags_init) or from a module's constructor, never from
 * the allocation, free or report paths. */
#define _GNU_SOURCE
#include <elf.h>
#include <link.h>
#include <stdint.h>

#include "../arch/arch.h"
#include "../shadow/shadow.h"
#include "tags.h"

#if defined(ARCH_HAS_TBI)

#define NT_LLVM_HWASAN_GLOBALS 3

struct global_desc {
	int32_t rel;
	uint32_t info;
};

static int is_llvm_name(const char *name, uint32_t namesz)
{
	/* "LLVM" padded with NULs to 8, as the compiler writes it. */
	return namesz == 8 && name[0] == 'L' && name[1] == 'L' && name[2] == 'V' &&
	       name[3] == 'M' && name[4] == 0;
}

static void tag_globals(uintptr_t note, const int32_t *desc)
{
	const struct global_desc *d = (const struct global_desc *)(note + desc[0]);
	const struct global_desc *end = (const struct global_desc *)(note + desc[1]);

	for (; d < end; d++) {
		uintptr_t addr = untag((uintptr_t)d + d->rel);
		size_t size = d->info & 0xffffff;
		uint8_t tag = d->info >> 24;
		/* The pass aligns every tagged global to a granule; a descriptor
		 * that says otherwise is not one we understand. */
		if (addr & (TAG_GRANULE - 1))
			continue;
		tag_shadow_set(addr, size, tag);
	}
}

/* One PT_NOTE segment: notes one after another, each padded to the
 * segment's alignment (4, or 8 for GNU property notes). */
static void scan_notes(uintptr_t beg, uintptr_t end, uintptr_t align)
{
	if (align < 4)
		align = 4;
	uintptr_t p = beg;
	while (p + sizeof(Elf64_Nhdr) <= end) {
		const Elf64_Nhdr *n = (const Elf64_Nhdr *)p;
		uintptr_t name = p + sizeof(*n);
		uintptr_t desc = (name + n->n_namesz + align - 1) & ~(align - 1);
		uintptr_t next = (desc + n->n_descsz + align - 1) & ~(align - 1);
		if (next > end || next <= p)
			return;
		if (n->n_type == NT_LLVM_HWASAN_GLOBALS && n->n_descsz == 8 &&
		    is_llvm_name((const char *)name, n->n_namesz))
			tag_globals(p, (const int32_t *)desc);
		p = next;
	}
}

struct walk {
	uintptr_t only; /* 0: every module; else the one that holds this address */
};

static int holds(const struct dl_phdr_info *info, uintptr_t addr)
{
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uintptr_t beg = info->dlpi_addr + ph->p_vaddr;
		if (ph->p_type == PT_LOAD && addr >= beg && addr - beg < ph->p_memsz)
			return 1;
	}
	return 0;
}

static int on_module(struct dl_phdr_info *info, size_t size, void *arg)
{
	const struct walk *w = arg;
	(void)size;
	if (w->only && !holds(info, w->only))
		return 0;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		if (ph->p_type != PT_NOTE)
			continue;
		uintptr_t beg = info->dlpi_addr + ph->p_vaddr;
		scan_notes(beg, beg + ph->p_memsz, ph->p_align);
	}
	return w->only != 0; /* the one module found: stop */
}

/* Every module loaded now: at set-up, before any instrumented code runs
 * (the runtime's constructor comes before those of the modules that
 * depend on it, and the first malloc before either). */
void sw_globals_init(void)
{
	struct walk w = {0};
	dl_iterate_phdr(on_module, &w);
}

/* The module that holds addr: for one loaded later (dlopen), from its
 * constructor's call to __hwasan_init, with addr that call's return
 * address. Tagging a module again changes nothing: its tags are static. */
void sw_globals_module(uintptr_t addr)
{
	struct walk w = {untag(addr)};
	if (w.only)
		dl_iterate_phdr(on_module, &w);
}

#else
void sw_globals_init(void)
{
}

void sw_globals_module(uintptr_t addr)
{
	(void)addr;
}
#endif
