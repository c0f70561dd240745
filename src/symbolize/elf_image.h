/* An ELF file mapped in memory as it is on disk: its section headers, GNU
 * build-id note and symbol table. The dynamic linker reads program headers
 * only, so a program whose section headers, notes or symbols are corrupt
 * runs normally; these readers must then answer "nothing" rather than
 * fault. Every offset and size is compared by subtraction against what is
 * left of the file, so no sum can wrap. No allocation, no OS call. */
#ifndef UKASAN_SYMBOLIZE_ELF_IMAGE_H
#define UKASAN_SYMBOLIZE_ELF_IMAGE_H

#include <link.h>
#include <stddef.h>
#include <stdint.h>

/* Section i of the image, or NULL when the header or the section's
 * contents (unless SHT_NOBITS) lie outside the file or are misaligned. */
const ElfW(Shdr) * elf_section(const unsigned char *file, size_t size, unsigned i);

/* The first section named name that has contents in the file (not
 * SHT_NOBITS), or NULL; its name read from the section name table only
 * where it ends inside it. */
const ElfW(Shdr) * elf_section_named(const unsigned char *file, size_t size, const char *name);

/* The GNU build-id in notes [p, p + n): 1 with *id and *len (at most
 * max bytes), else 0. */
int elf_notes_build_id(const unsigned char *p, size_t n, size_t max, const unsigned char **id,
                       size_t *len);

/* The build-id from the image's SHT_NOTE sections, as above. */
int elf_build_id(const unsigned char *file, size_t size, size_t max, const unsigned char **id,
                 size_t *len);

struct elf_symtab {
	const ElfW(Sym) * syms;
	size_t nsyms;
	const char *strs; /* ends with a NUL, so every name in it does */
	size_t strsz;
};

/* The image's best symbol table (.symtab, else .dynsym) into t: 1 for a
 * full one, 0 for .dynsym or none (t->nsyms 0). *has_debug is set when a
 * .debug_line section is named. */
int elf_symtab(const unsigned char *file, size_t size, struct elf_symtab *t, int *has_debug);

/* The function symbol containing addr (a link-time address), a global one
 * preferred over a local alias, or NULL. */
const ElfW(Sym) * elf_find_symbol(const struct elf_symtab *t, uint64_t addr);

#endif
