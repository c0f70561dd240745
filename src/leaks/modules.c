/* The running process's modules, from /proc/PID/maps: the mapped ELF files,
 * where each is loaded, and the symbols they export (only to find the
 * runtime's __ukasan_leak_remote). The files are this machine's, so they
 * are read as they are; the maps text is the kernel's. */
#define _GNU_SOURCE
#include <elf.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../report/report.h"
#include "leaks.h"

#define MAX_MODULES 4096

static struct module {
	char *path;
	/* Its code as loaded: the executable mappings' range, and the first's
	 * address and file offset. Only these: the runtime also maps ELF
	 * files whole, read-only, for its symbolizer (before a sandbox). */
	uintptr_t lo, hi;
	uintptr_t x_start, x_off;
} modules[MAX_MODULES];
static int nmodules;

static struct module *module_named(const char *path)
{
	for (int i = 0; i < nmodules; i++)
		if (!strcmp(modules[i].path, path))
			return &modules[i];
	if (nmodules == MAX_MODULES)
		return NULL;
	struct module *m = &modules[nmodules++];
	m->path = strdup(path);
	m->lo = UINTPTR_MAX;
	m->hi = 0;
	return m->path ? m : (nmodules--, NULL);
}

int modules_read(int pid)
{
	char name[64];
	snprintf(name, sizeof(name), "/proc/%d/maps", pid);
	FILE *f = fopen(name, "re");
	if (!f)
		return -1;
	char line[4352];
	while (fgets(line, sizeof(line), f)) {
		uintptr_t lo, hi;
		unsigned long long off;
		char perms[8];
		int at = 0;
		if (sscanf(line, "%" SCNxPTR "-%" SCNxPTR " %7s %llx %*s %*s %n", &lo, &hi, perms,
		           &off, &at) < 4 ||
		    !at || line[at] != '/')
			continue;
		line[strcspn(line, "\n")] = 0;
		if (strstr(line + at, " (deleted)"))
			continue;
		if (perms[2] != 'x')
			continue;
		struct module *m = module_named(line + at);
		if (!m)
			continue;
		if (lo < m->lo) {
			m->lo = lo;
			m->x_start = lo;
			m->x_off = (uintptr_t)off;
		}
		if (hi > m->hi)
			m->hi = hi;
	}
	fclose(f);
	return 0;
}

/* The file, mapped read-only; NULL if not an ELF file of ours. */
static const uint8_t *map_elf(const char *path, size_t *size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	struct stat st;
	void *p = MAP_FAILED;
	if (fstat(fd, &st) == 0 && st.st_size >= (off_t)sizeof(Elf64_Ehdr))
		p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (p == MAP_FAILED)
		return NULL;
	const Elf64_Ehdr *e = p;
	if (memcmp(e->e_ident, ELFMAG, SELFMAG) || e->e_ident[EI_CLASS] != ELFCLASS64) {
		munmap(p, (size_t)st.st_size);
		return NULL;
	}
	*size = (size_t)st.st_size;
	return p;
}

/* Whether [off, off + n * each) lies in the file. */
static int inside(size_t size, uint64_t off, uint64_t n, uint64_t each)
{
	return off <= size && (!each || n <= (size - off) / each);
}

/* The symbol's value in the file's .dynsym, and the link address of the
 * page of the executable PT_LOAD at file offset x_off; 0 if absent. */
static uint64_t elf_symbol(const uint8_t *f, size_t size, const char *name, uint64_t x_off,
                           uint64_t *link)
{
	const Elf64_Ehdr *e = (const Elf64_Ehdr *)f;
	*link = UINT64_MAX;
	if (inside(size, e->e_phoff, e->e_phnum, sizeof(Elf64_Phdr)) &&
	    e->e_phentsize == sizeof(Elf64_Phdr)) {
		const Elf64_Phdr *ph = (const Elf64_Phdr *)(f + e->e_phoff);
		for (int i = 0; i < e->e_phnum; i++)
			if (ph[i].p_type == PT_LOAD && (ph[i].p_flags & PF_X) &&
			    (ph[i].p_offset & ~(uint64_t)0xfff) == x_off)
				*link = ph[i].p_vaddr & ~(uint64_t)0xfff;
	}
	if (*link == UINT64_MAX)
		return 0;
	if (!inside(size, e->e_shoff, e->e_shnum, sizeof(Elf64_Shdr)) ||
	    e->e_shentsize != sizeof(Elf64_Shdr))
		return 0;
	const Elf64_Shdr *sh = (const Elf64_Shdr *)(f + e->e_shoff);
	for (int i = 0; i < e->e_shnum; i++) {
		if (sh[i].sh_type != SHT_DYNSYM || sh[i].sh_link >= e->e_shnum)
			continue;
		const Elf64_Shdr *str = &sh[sh[i].sh_link];
		if (!inside(size, sh[i].sh_offset, sh[i].sh_size / sizeof(Elf64_Sym),
		            sizeof(Elf64_Sym)) ||
		    !inside(size, str->sh_offset, str->sh_size, 1))
			continue;
		const Elf64_Sym *sym = (const Elf64_Sym *)(f + sh[i].sh_offset);
		const char *strs = (const char *)f + str->sh_offset;
		size_t nlen = strlen(name);
		for (uint64_t k = 0; k < sh[i].sh_size / sizeof(Elf64_Sym); k++)
			if (sym[k].st_shndx != SHN_UNDEF && sym[k].st_name < str->sh_size &&
			    str->sh_size - sym[k].st_name > nlen &&
			    !memcmp(strs + sym[k].st_name, name, nlen + 1))
				return sym[k].st_value;
	}
	return 0;
}

uintptr_t modules_symbol(const char *name, const char **path)
{
	/* The runtime's own file first: most processes have one. */
	for (int pass = 0; pass < 2; pass++)
		for (int i = 0; i < nmodules; i++) {
			struct module *m = &modules[i];
			int ours = strstr(m->path, "libukasan") != NULL;
			if (ours != !pass)
				continue;
			size_t size;
			const uint8_t *f = map_elf(m->path, &size);
			if (!f)
				continue;
			uint64_t link, v = elf_symbol(f, size, name, m->x_off, &link);
			munmap((void *)f, size);
			if (!v)
				continue;
			uintptr_t bias = m->x_start - link;
			*path = m->path;
			return bias + v;
		}
	return 0;
}

void modules_print_frame(uintptr_t pc, const char *indent)
{
	for (int i = 0; i < nmodules; i++) {
		const struct module *m = &modules[i];
		if (pc < m->lo || pc >= m->hi)
			continue;
		const char *base = strrchr(m->path, '/');
		report_printf("%s[<%016lx>] 0x%lx [%s+0x%lx]\n", indent, (unsigned long)pc,
		              (unsigned long)pc, base ? base + 1 : m->path,
		              (unsigned long)(pc - (m->x_start - m->x_off)));
		return;
	}
	report_printf("%s[<%016lx>] 0x%lx\n", indent, (unsigned long)pc, (unsigned long)pc);
}
