/* The little of the runtime's lower layers the readers call, for the fuzz
 * target: formatting, and pages for decompressed sections (refused past
 * 16 MiB, which a fuzzer would otherwise ask for on every input). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "../../../src/config/log.h"
#include "../../../src/platform/dynlink.h"
#include "../../../src/platform/os.h"

size_t fmt_buf(char *buf, size_t cap, const char *fmt, ...)
{
	va_list ap;
	if (!cap)
		return 0;
	va_start(ap, fmt);
	int n = vsnprintf(buf, cap, fmt, ap);
	va_end(ap);
	if (n < 0)
		return 0;
	return (size_t)n < cap ? (size_t)n : cap - 1;
}

size_t os_page_size(void)
{
	return 4096;
}

void *os_reserve(size_t size, enum os_prot prot)
{
	(void)prot;
	return size > (16u << 20) ? NULL : calloc(1, size);
}

void os_release(void *addr, size_t size)
{
	(void)size;
	free(addr);
}

/* cfi_rule's way to the program's headers: not reached by the fuzz
 * target, which calls cfi_rule_in with an image of its own. */
int dl_program_phdrs(const ElfW(Phdr) * *phdrs, uintptr_t *bias)
{
	(void)phdrs, (void)bias;
	return -1;
}
