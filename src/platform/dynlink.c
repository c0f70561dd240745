/* Symbol lookup in the loaded objects, done by reading their dynamic symbol
 * tables in place. dlsym takes the dynamic linker's lock and may allocate
 * (its error buffer, and through the program's malloc that is us), so it
 * cannot resolve the allocator that sits under ours while we are inside an
 * allocation, nor be called from a thread that holds the loader's lock. A
 * walk of the link map chain needs neither. It is not safe against a
 * concurrent dlclose of the objects walked, so it is used for objects that
 * cannot go away: the program, its preloads and its startup libraries. */
#define _GNU_SOURCE
#include "dynlink.h"

#include <dlfcn.h>
#include <elf.h>
#include <gnu/libc-version.h>
#include <stddef.h>
#include <link.h>
#include <sys/auxv.h>

struct symtab {
	uintptr_t base;
	const ElfW(Sym) * syms;
	const char *strs;
	const uint32_t *gnu_hash;
	const uint32_t *sysv_hash;
	const ElfW(Half) * versym;
	/* What is looked up: STT_FUNC, or STT_OBJECT (dl_lookup_object),
	 * which takes global definitions only, not weak ones. */
	unsigned char type;
	unsigned char strong; /* functions too: global definitions only */
};

/* The loader relocates most objects' dynamic entries in place; the vDSO's
 * (read-only) and some others keep their link-time values. */
static uintptr_t dyn_ptr(const struct link_map *l, ElfW(Addr) v)
{
	return v < l->l_addr ? l->l_addr + v : v;
}

static int symtab_of(const struct link_map *l, struct symtab *t)
{
	*t = (struct symtab){.base = l->l_addr, .type = STT_FUNC};
	if (!l->l_ld)
		return 0;
	for (const ElfW(Dyn) *d = l->l_ld; d->d_tag != DT_NULL; d++) {
		switch (d->d_tag) {
		case DT_SYMTAB:
			t->syms = (const ElfW(Sym) *)dyn_ptr(l, d->d_un.d_ptr);
			break;
		case DT_STRTAB:
			t->strs = (const char *)dyn_ptr(l, d->d_un.d_ptr);
			break;
		case DT_GNU_HASH:
			t->gnu_hash = (const uint32_t *)dyn_ptr(l, d->d_un.d_ptr);
			break;
		case DT_HASH:
			t->sysv_hash = (const uint32_t *)dyn_ptr(l, d->d_un.d_ptr);
			break;
		case DT_VERSYM:
			t->versym = (const ElfW(Half) *)dyn_ptr(l, d->d_un.d_ptr);
			break;
		}
	}
	return t->syms && t->strs && (t->gnu_hash || t->sysv_hash);
}

/* A definition the dynamic linker would bind to: a defined function (or
 * variable, as the table asks), global or weak, of the default version.
 * Indirect functions are declined: calling their resolvers is the loader's
 * business. */
static void *match(const struct symtab *t, uint32_t i, const char *name)
{
	const ElfW(Sym) *s = &t->syms[i];
	if (s->st_shndx == SHN_UNDEF || ELF64_ST_TYPE(s->st_info) != t->type)
		return NULL;
	if (ELF64_ST_BIND(s->st_info) != STB_GLOBAL && ELF64_ST_BIND(s->st_info) != STB_WEAK)
		return NULL;
	if ((t->type == STT_OBJECT || t->strong) && ELF64_ST_BIND(s->st_info) != STB_GLOBAL)
		return NULL;
	if (t->versym && (t->versym[i] & 0x8000))
		return NULL; /* a hidden, non-default version */
	/* Not strcmp: in an instrumented program that is a checking
	 * interposer. */
	const char *a = t->strs + s->st_name, *b = name;
	while (*a && *a == *b)
		a++, b++;
	if (*a != *b)
		return NULL;
	return (void *)(t->base + s->st_value);
}

static void *lookup_gnu(const struct symtab *t, const char *name)
{
	uint32_t h = 5381;
	for (const unsigned char *c = (const unsigned char *)name; *c; c++)
		h = h * 33 + *c;
	const uint32_t nbuckets = t->gnu_hash[0], symoffset = t->gnu_hash[1];
	const uint32_t bloom_size = t->gnu_hash[2];
	if (!nbuckets)
		return NULL;
	const uint32_t *buckets = t->gnu_hash + 4 + bloom_size * (sizeof(ElfW(Addr)) / 4);
	const uint32_t *chain = buckets + nbuckets;
	uint32_t i = buckets[h % nbuckets];
	if (i < symoffset)
		return NULL;
	for (;; i++) {
		uint32_t h2 = chain[i - symoffset];
		if ((h2 | 1) == (h | 1)) {
			void *p = match(t, i, name);
			if (p)
				return p;
		}
		if (h2 & 1)
			return NULL;
	}
}

static void *lookup_sysv(const struct symtab *t, const char *name)
{
	uint32_t h = 0;
	for (const unsigned char *c = (const unsigned char *)name; *c; c++) {
		h = (h << 4) + *c;
		uint32_t g = h & 0xf0000000u;
		if (g)
			h ^= g >> 24;
		h &= ~g;
	}
	const uint32_t nbucket = t->sysv_hash[0], nchain = t->sysv_hash[1];
	const uint32_t *bucket = t->sysv_hash + 2, *chain = bucket + nbucket;
	if (!nbucket)
		return NULL;
	for (uint32_t i = bucket[h % nbucket], n = 0; i && i < nchain && n < nchain;
	     i = chain[i], n++) {
		void *p = match(t, i, name);
		if (p)
			return p;
	}
	return NULL;
}

void *dl_lookup(const struct link_map *l, const char *name)
{
	struct symtab t;
	if (!l || !symtab_of(l, &t))
		return NULL;
	return t.gnu_hash ? lookup_gnu(&t, name) : lookup_sysv(&t, name);
}

void *dl_first_strong_definition(const char *name, const struct link_map **where)
{
	for (const struct link_map *l = dl_first_object(); l; l = l->l_next) {
		struct symtab t;
		if (!symtab_of(l, &t))
			continue;
		t.strong = 1;
		void *p = t.gnu_hash ? lookup_gnu(&t, name) : lookup_sysv(&t, name);
		if (p) {
			if (where)
				*where = l;
			return p;
		}
	}
	return NULL;
}

void *dl_lookup_object(const struct link_map *l, const char *name)
{
	struct symtab t;
	if (!l || !symtab_of(l, &t))
		return NULL;
	t.type = STT_OBJECT;
	return t.gnu_hash ? lookup_gnu(&t, name) : lookup_sysv(&t, name);
}

/* The number of dynamic symbols: the SysV table says it; the GNU one covers
 * only the defined symbols, so its count is the end of the last chain. */
static uint32_t symbol_count(const struct symtab *t)
{
	if (t->sysv_hash)
		return t->sysv_hash[1];
	const uint32_t nbuckets = t->gnu_hash[0], symoffset = t->gnu_hash[1];
	const uint32_t *buckets = t->gnu_hash + 4 + t->gnu_hash[2] * (sizeof(ElfW(Addr)) / 4);
	uint32_t last = 0;
	for (uint32_t b = 0; b < nbuckets; b++)
		if (buckets[b] > last)
			last = buckets[b];
	if (last < symoffset)
		return symoffset;
	while (!(buckets[nbuckets + last - symoffset] & 1))
		last++;
	return last + 1;
}

int dl_imports(const struct link_map *l, const char *name)
{
	struct symtab t;
	if (!l || !symtab_of(l, &t))
		return 0;
	for (uint32_t i = 1, n = symbol_count(&t); i < n; i++) {
		if (t.syms[i].st_shndx != SHN_UNDEF)
			continue;
		const char *a = t.strs + t.syms[i].st_name, *b = name;
		while (*a && *a == *b)
			a++, b++;
		if (*a == *b)
			return 1;
	}
	return 0;
}

const char *dl_object_name_at(const struct link_map *l, const void *addr)
{
	struct symtab t;
	if (!l || !symtab_of(l, &t))
		return NULL;
	t.type = STT_OBJECT;
	for (uint32_t i = 1, n = symbol_count(&t); i < n; i++) {
		const ElfW(Sym) *s = &t.syms[i];
		if (t.base + s->st_value != (uintptr_t)addr || s->st_shndx == SHN_UNDEF)
			continue;
		const char *name = t.strs + s->st_name;
		if (match(&t, i, name))
			return name;
	}
	return NULL;
}

const struct link_map *dl_object_of(const void *addr)
{
	struct dl_find_object fo;
	if (_dl_find_object((void *)addr, &fo) != 0)
		return NULL;
	return fo.dlfo_link_map;
}

const struct link_map *dl_first_object(void)
{
	const struct link_map *l = dl_object_of((const void *)&dl_first_object);
	while (l && l->l_prev)
		l = l->l_prev;
	return l;
}

void *dl_next_definition(const void *self, const char *name, const struct link_map **where)
{
	const struct link_map *l = dl_object_of(self);
	for (l = l ? l->l_next : NULL; l; l = l->l_next) {
		void *p = dl_lookup(l, name);
		if (p) {
			if (where)
				*where = l;
			return p;
		}
	}
	return NULL;
}

const struct link_map *dl_libc_object(void)
{
	return dl_object_of((const void *)gnu_get_libc_version);
}

void *dl_first_definition(const char *name, const struct link_map **where)
{
	for (const struct link_map *l = dl_first_object(); l; l = l->l_next) {
		void *p = dl_lookup(l, name);
		if (p) {
			if (where)
				*where = l;
			return p;
		}
	}
	return NULL;
}

size_t dl_init_array(const struct link_map *l, void (*const **arr)(void))
{
	uintptr_t a = 0;
	size_t bytes = 0;
	*arr = NULL;
	if (!l->l_ld)
		return 0;
	for (const ElfW(Dyn) *d = l->l_ld; d->d_tag != DT_NULL; d++)
		if (d->d_tag == DT_INIT_ARRAY)
			a = d->d_un.d_ptr;
		else if (d->d_tag == DT_INIT_ARRAYSZ)
			bytes = d->d_un.d_val;
	if (!a || !bytes)
		return 0;
	/* Not relocated in place by the loader, whatever the object. */
	*arr = (void (*const *)(void))(l->l_addr + a);
	return bytes / sizeof(**arr);
}

/* The bounds of this library's code, from the linker; hidden, so that the
 * program's own symbols of these names cannot stand in for them. */
extern const char __ehdr_start[] __attribute__((visibility("hidden")));
extern const char _etext[] __attribute__((visibility("hidden")));

int dl_own_text(uintptr_t ip)
{
	return ip >= (uintptr_t)__ehdr_start && ip < (uintptr_t)_etext;
}

int dl_program_phdrs(const ElfW(Phdr) * *phdrs, uintptr_t *bias)
{
	const ElfW(Phdr) *ph = (const ElfW(Phdr) *)getauxval(AT_PHDR);
	unsigned long n = getauxval(AT_PHNUM);
	for (unsigned long i = 0; ph && i < n && n < 4096; i++)
		if (ph[i].p_type == PT_PHDR) {
			*bias = (uintptr_t)ph - ph[i].p_vaddr;
			*phdrs = ph;
			return (int)n;
		}
	return -1;
}

/* From the program's headers, as the kernel passed them (AT_PHDR), not
 * the loader's list: its executable segment. */
int dl_program_text(uintptr_t *lo, uintptr_t *hi)
{
	const ElfW(Phdr) * ph;
	uintptr_t base = 0;
	int n = dl_program_phdrs(&ph, &base);
	*lo = *hi = 0;
	for (int i = 0; i < n; i++)
		if (ph[i].p_type == PT_LOAD && (ph[i].p_flags & PF_X)) {
			*lo = base + ph[i].p_vaddr;
			*hi = *lo + ph[i].p_memsz;
		}
	return *hi > *lo;
}
