#include "elf_image.h"

#include <elf.h>
#include <string.h>

/* The header, if this is an ELF image of our own class whose section
 * header table lies inside the file. */
static const ElfW(Ehdr) * header(const unsigned char *file, size_t size)
{
	const ElfW(Ehdr) *eh = (const void *)file;
	if (size < sizeof(*eh) || memcmp(file, ELFMAG, SELFMAG) ||
	    eh->e_ident[EI_CLASS] != (sizeof(void *) == 8 ? ELFCLASS64 : ELFCLASS32) ||
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	    eh->e_ident[EI_DATA] != ELFDATA2LSB ||
#else
	    eh->e_ident[EI_DATA] != ELFDATA2MSB ||
#endif
	    eh->e_shentsize != sizeof(ElfW(Shdr)) || eh->e_shoff > size ||
	    eh->e_shoff % _Alignof(ElfW(Shdr)) ||
	    (size - eh->e_shoff) / sizeof(ElfW(Shdr)) < eh->e_shnum)
		return NULL;
	return eh;
}

const ElfW(Shdr) * elf_section(const unsigned char *file, size_t size, unsigned i)
{
	const ElfW(Ehdr) *eh = header(file, size);
	if (!eh || i >= eh->e_shnum)
		return NULL;
	const ElfW(Shdr) *sh = (const ElfW(Shdr) *)(file + eh->e_shoff) + i;
	if (sh->sh_type != SHT_NOBITS &&
	    (sh->sh_offset > size || sh->sh_size > size - sh->sh_offset))
		return NULL;
	return sh;
}

const ElfW(Shdr) * elf_section_named(const unsigned char *file, size_t size, const char *name)
{
	const ElfW(Ehdr) *eh = header(file, size);
	const ElfW(Shdr) *names = eh ? elf_section(file, size, eh->e_shstrndx) : NULL;
	if (!names || names->sh_type == SHT_NOBITS)
		return NULL;
	const char *strs = (const char *)file + names->sh_offset;
	size_t len = strlen(name);
	for (unsigned i = 0; i < eh->e_shnum; i++) {
		const ElfW(Shdr) *sh = elf_section(file, size, i);
		if (!sh || sh->sh_type == SHT_NOBITS || sh->sh_name >= names->sh_size ||
		    names->sh_size - sh->sh_name <= len)
			continue;
		if (!memcmp(strs + sh->sh_name, name, len + 1))
			return sh;
	}
	return NULL;
}

/* Note fields are 4-byte aligned: the padded length of n, or SIZE_MAX. */
static size_t padded(uint32_t n)
{
	return n > UINT32_MAX - 3 ? SIZE_MAX : (size_t)((n + 3) & ~3u);
}

int elf_notes_build_id(const unsigned char *p, size_t n, size_t max, const unsigned char **id,
                       size_t *len)
{
	ElfW(Nhdr) nh;
	while (n >= sizeof(nh)) {
		memcpy(&nh, p, sizeof(nh)); /* a file's note may be misaligned */
		p += sizeof(nh);
		n -= sizeof(nh);
		size_t name = padded(nh.n_namesz), desc = padded(nh.n_descsz);
		if (name > n || nh.n_descsz > n - name)
			return 0;
		if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 && !memcmp(p, "GNU", 4) &&
		    nh.n_descsz >= 2 && nh.n_descsz <= max) {
			*id = p + name;
			*len = nh.n_descsz;
			return 1;
		}
		if (desc > n - name)
			return 0;
		p += name + desc;
		n -= name + desc;
	}
	return 0;
}

int elf_build_id(const unsigned char *file, size_t size, size_t max, const unsigned char **id,
                 size_t *len)
{
	const ElfW(Ehdr) *eh = header(file, size);
	for (unsigned i = 0; eh && i < eh->e_shnum; i++) {
		const ElfW(Shdr) *sh = elf_section(file, size, i);
		if (sh && sh->sh_type == SHT_NOTE &&
		    elf_notes_build_id(file + sh->sh_offset, sh->sh_size, max, id, len))
			return 1;
	}
	return 0;
}

int elf_symtab(const unsigned char *file, size_t size, struct elf_symtab *t, int *has_debug)
{
	static const char debug_line[] = ".debug_line";
	const ElfW(Ehdr) *eh = header(file, size);
	const ElfW(Shdr) *best = NULL, *shstr;
	memset(t, 0, sizeof(*t));
	if (!eh)
		return 0;
	shstr = elf_section(file, size, eh->e_shstrndx);
	if (shstr && shstr->sh_type == SHT_NOBITS)
		shstr = NULL;
	for (unsigned i = 0; i < eh->e_shnum; i++) {
		const ElfW(Shdr) *sh = elf_section(file, size, i);
		if (!sh)
			continue;
		if (sh->sh_type == SHT_SYMTAB || (sh->sh_type == SHT_DYNSYM && !best))
			best = sh;
		if (shstr && sh->sh_name < shstr->sh_size &&
		    shstr->sh_size - sh->sh_name >= sizeof(debug_line) &&
		    !memcmp(file + shstr->sh_offset + sh->sh_name, debug_line, sizeof(debug_line)))
			*has_debug = 1;
	}
	if (!best || best->sh_entsize != sizeof(ElfW(Sym)) || best->sh_offset % _Alignof(ElfW(Sym)))
		return 0;
	const ElfW(Shdr) *strsh = elf_section(file, size, best->sh_link);
	if (!strsh || strsh->sh_type == SHT_NOBITS || !strsh->sh_size ||
	    file[strsh->sh_offset + strsh->sh_size - 1] != 0)
		return 0;
	t->syms = (const ElfW(Sym) *)(file + best->sh_offset);
	t->nsyms = best->sh_size / sizeof(ElfW(Sym));
	t->strs = (const char *)file + strsh->sh_offset;
	t->strsz = strsh->sh_size;
	return best->sh_type == SHT_SYMTAB;
}

const ElfW(Sym) * elf_find_symbol(const struct elf_symtab *t, uint64_t addr)
{
	const ElfW(Sym) *best = NULL;
	for (size_t i = 0; i < t->nsyms; i++) {
		const ElfW(Sym) *s = &t->syms[i];
		int type = ELF64_ST_TYPE(s->st_info);
		if ((type != STT_FUNC && type != STT_GNU_IFUNC) || !s->st_value ||
		    s->st_name >= t->strsz)
			continue;
		/* by difference: st_value + st_size may wrap */
		if (addr >= s->st_value && addr - s->st_value < s->st_size)
			best = s;
		if (best && ELF64_ST_BIND(best->st_info) != STB_LOCAL)
			break; /* prefer a global alias of the same code */
	}
	return best;
}
