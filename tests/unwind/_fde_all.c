/* Every FDE of the loaded objects through eh_check.c: a real library's
 * must all be accepted (a refused one ends the stack there). Prints one
 * line per object: "NAME: N FDEs, K refused". Usage: _fde_all [LIB]... */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <stdio.h>
#include <string.h>
#include "../../src/stack/eh_frame.h"
static int cb(struct dl_phdr_info *info, size_t size, void *data)
{
	(void)size; (void)data;
	const ElfW(Phdr) *eh = NULL;
	for (int i = 0; i < info->dlpi_phnum; i++)
		if (info->dlpi_phdr[i].p_type == PT_GNU_EH_FRAME) eh = &info->dlpi_phdr[i];
	if (!eh) return 0;
	const uint8_t *hdr = (const uint8_t *)(info->dlpi_addr + eh->p_vaddr);
	struct obj o = {~(uintptr_t)0, 0};
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *p = &info->dlpi_phdr[i];
		if (p->p_type != PT_LOAD) continue;
		uintptr_t lo = info->dlpi_addr + p->p_vaddr, hi = lo + p->p_memsz;
		if ((uintptr_t)hdr >= lo && (uintptr_t)hdr < hi) { o.lo = lo; o.hi = hi; }
	}
	if (hdr[0] != 1 || hdr[3] != 0x3b) { printf("%s: table form %x\n", info->dlpi_name, hdr[3]); return 0; }
	struct cur c = {hdr + 4, (const uint8_t *)o.hi};
	uintptr_t ehp, count;
	rd_encoded(&c, hdr[1], (uintptr_t)hdr, &ehp);
	rd_encoded(&c, hdr[2], (uintptr_t)hdr, &count);
	int bad = 0;
	for (uintptr_t k = 0; k < count; k++) {
		int32_t e[2];
		memcpy(e, c.p + 8 * k, 8);
		uintptr_t fde = (uintptr_t)hdr + (intptr_t)e[1];
		if (!eh_fde_sane(&o, fde)) { if (bad < 3) printf("  bad fde at %#lx (pc %#lx)\n", fde - info->dlpi_addr, (uintptr_t)hdr + (intptr_t)e[0] - info->dlpi_addr); bad++; }
	}
	printf("%s: %lu FDEs, %d refused\n", info->dlpi_name[0] ? info->dlpi_name : "(main)", (unsigned long)count, bad);
	return 0;
}
int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) if (!dlopen(argv[i], RTLD_NOW)) printf("no %s\n", argv[i]);
	dl_iterate_phdr(cb, NULL);
	return 0;
}
