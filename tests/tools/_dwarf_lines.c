/* The driver of check_dwarf_lines: reads link-time addresses of its own
 * executable (hex, one a line) and prints what __sanitizer_symbolize_pc
 * says of each, as "ADDR FILE:LINE". argv[1] is added to each address
 * before the runtime takes one off as from a return address: 1 asks for the
 * address itself, 0 for the one before it (the planted off-by-one). With
 * argv[2] "libc", the addresses are libc's. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* weak: the runtime comes by LD_PRELOAD */
void __sanitizer_symbolize_pc(void *pc, const char *fmt, char *out, size_t size)
    __attribute__((weak));
int subject(int n); /* the code whose lines are looked up */

static int first_bias(struct dl_phdr_info *info, size_t size, void *data)
{
	(void)size;
	*(uintptr_t *)data = info->dlpi_addr;
	return 1;
}

int main(int argc, char **argv)
{
	uintptr_t bias = 0;
	long shift = argc > 1 ? strtol(argv[1], NULL, 0) : 1;
	char line[64], out[512];
	if (!__sanitizer_symbolize_pc)
		return 2;
	dl_iterate_phdr(first_bias, &bias);
	Dl_info libc;
	if (argc > 2 && !strcmp(argv[2], "libc") && dladdr((void *)printf, &libc))
		bias = (uintptr_t)libc.dli_fbase;
	while (fgets(line, sizeof(line), stdin)) {
		unsigned long a = strtoul(line, NULL, 16);
		__sanitizer_symbolize_pc((void *)(bias + a + shift), "%s:%l", out, sizeof(out));
		printf("0x%lx %s\n", a, out);
	}
	return argc > 3 ? subject(argc) : 0;
}
