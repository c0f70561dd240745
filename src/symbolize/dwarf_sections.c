/* Compressed debug sections (SHF_COMPRESSED, zlib): inflated into pages
 * of their own, kept for the next report, and for the sections read from
 * their start, inflated only as far as they are read. */
#define _GNU_SOURCE
#include <elf.h>
#include <link.h>
#include <string.h>

#include "../platform/os.h"

#include "dwarf_form.h"
#include "dwarf_line.h"
#include "elf_image.h"
#include "inflate.h"

/* Decompressed sections, kept for the next report: bounded in number, each
 * in pages of its own. Only touched with the report lock held. A caller
 * keeps pointers into the sections of one query (an inlined-function
 * lookup reads nine) while it asks for the next: so the slot given up is
 * the one used least recently, never one of the query's while fewer than
 * ZSLOTS are asked for, and a failed inflation (a corrupt section, asked
 * again at every frame) gives up none.
 *
 * A section a lookup reads from its start (units, their abbreviation
 * tables, line tables, range lists, strings) is inflated only as far as
 * it reads: the stream stops where it has the bytes asked for, within a
 * block if need be, and goes on when more are wanted. A leak report's
 * libc frames (__libc_start_main's unit is in the first 11 KiB of libc's
 * 5.8 MB .debug_info) took 40 ms of inflating, in every short process
 * that printed one; 45 KB of the sections are inflated for them now. */
#define ZSLOTS 16
static struct zsec {
	const unsigned char *elf;
	size_t off, n, cap, total;
	unsigned char *p;
	unsigned long used;
	struct zlib_stream z;
} zcache[ZSLOTS];
static unsigned long zclock;

void dwarf_forget(const unsigned char *elf, size_t size)
{
	for (unsigned i = 0; i < ZSLOTS; i++)
		if (zcache[i].p && zcache[i].elf >= elf && zcache[i].elf < elf + size) {
			os_release(zcache[i].p, zcache[i].cap);
			zcache[i].p = NULL;
		}
}

/* Slot z inflated on to want bytes; 0 when
 * they are there, or all there is: a stream that ends short of its
 * header's size, or runs past it, is corrupt. */
static int inflate_to(struct zsec *z, size_t want)
{
	if (!z->z.state && z->n < want)
		zlib_inflate_more(&z->z, z->p, z->total, &z->n, want);
	return z->z.state < 0 || (z->z.state == 1 && z->n != z->total) ? -1 : 0;
}

static void section_of(const struct zsec *z, struct dw_sec *s)
{
	*s = (struct dw_sec){z->p, z->n, z->n < z->total ? z->total : 0};
}

/* A zlib-compressed section's contents, as far as they were asked for
 * since; 0 when they cannot be had. */
static int decompressed(const unsigned char *elf, const ElfW(Shdr) * sh, struct dw_sec *s)
{
	ElfW(Chdr) chdr, *ch = &chdr;
	struct zsec *z = &zcache[0];
	for (unsigned i = 0; i < ZSLOTS; i++) {
		if (zcache[i].p && zcache[i].elf == elf && zcache[i].off == sh->sh_offset) {
			zcache[i].used = ++zclock;
			if (inflate_to(&zcache[i], 0))
				return 0;
			section_of(&zcache[i], s);
			return 1;
		}
		/* the slot to give up: an empty one, else the least recently used */
		if (z->p && (!zcache[i].p || zcache[i].used < z->used))
			z = &zcache[i];
	}
	if (sh->sh_size < sizeof(*ch))
		return 0;
	memcpy(ch, elf + sh->sh_offset, sizeof(*ch)); /* a corrupt file's may be misaligned */
	if (ch->ch_type != ELFCOMPRESS_ZLIB || !ch->ch_size || ch->ch_size > (256u << 20))
		return 0;
	/* The contents, then the stream's codes for a block under way. */
	size_t page = os_page_size(), room = (ch->ch_size + page - 1) & ~(page - 1);
	struct zsec fresh = {.elf = elf,
	                     .off = sh->sh_offset,
	                     .cap = room + ((ZLIB_TABLES + page - 1) & ~(page - 1)),
	                     .total = ch->ch_size};
	if (!(fresh.p = os_reserve(fresh.cap, OS_PROT_RW)))
		return 0;
	zlib_stream_init(&fresh.z, elf + sh->sh_offset + sizeof(*ch), sh->sh_size - sizeof(*ch),
	                 fresh.p + room);
	/* Its first block at least: a stream that is corrupt from the start
	 * takes no slot. */
	if (inflate_to(&fresh, 1)) {
		os_release(fresh.p, fresh.cap);
		return 0;
	}
	if (z->p)
		os_release(z->p, z->cap);
	*z = fresh;
	z->used = ++zclock;
	section_of(z, s);
	return 1;
}

/* Only a lazily inflated section's n changes here: no section is a const
 * object, its readers just do not write it. */
int dwarf_cover(const struct dw_sec *s, size_t want)
{
	if (want <= s->n || !s->total)
		return 0;
	for (unsigned i = 0; i < ZSLOTS; i++)
		if (zcache[i].p && zcache[i].p == s->p) {
			int r = inflate_to(&zcache[i], want);
			((struct dw_sec *)s)->n = zcache[i].n;
			return r;
		}
	return -1;
}

int dwarf_cover_unit(const struct dw_sec *s, uint64_t off)
{
	if (!s->total)
		return 0;
	if (off > SIZE_MAX - 12 || dwarf_cover(s, off + 12) || off + 4 > s->n)
		return -1;
	struct dw_rd r = {s->p + off, s->p + s->n, 0};
	uint64_t len = dw_n(&r, 4);
	if (len == 0xffffffff)
		len = dw_n(&r, 8);
	uint64_t head = (uint64_t)(r.p - (s->p + off));
	if (r.bad || len > s->total || off + head > s->total - len)
		return -1;
	return dwarf_cover(s, off + head + len);
}

int dwarf_section(const unsigned char *elf, size_t size, const char *name, struct dw_sec *s,
                  int inflate)
{
	const ElfW(Shdr) *sh = elf_section_named(elf, size, name);
	*s = (struct dw_sec){NULL, 0, 0};
	if (!sh)
		return -1;
	if (!(sh->sh_flags & SHF_COMPRESSED))
		*s = (struct dw_sec){elf + sh->sh_offset, sh->sh_size, 0};
	else if (!inflate || !decompressed(elf, sh, s))
		return -1;
	return 0;
}
