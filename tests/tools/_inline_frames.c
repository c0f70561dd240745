/* The driver of check_inline_frames: the in-process reader of inlined
 * functions (src/symbolize/dwarf_info.c) and the line reader, linked from the
 * runtime's objects with the few platform functions they call, asked about
 * an ELF file's addresses (hex, one a line on stdin). For each it prints
 * what llvm-symbolizer --inlining --functions=linkage (LLVM style)
 * would: one "FUNC\nFILE:LINE" pair per frame, innermost first, the
 * outermost's function as the debug information names it ("?" unknown;
 * llvm-symbolizer takes the ELF symbol's), then an empty line. With -f,
 * argv[2] is read as an image to feed the reader once, as a fuzzer would:
 * it must not crash. */
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../src/platform/os.h"
#include "../../src/symbolize/dwarf_info.h"
#include "../../src/symbolize/dwarf_line.h"

size_t fmt_buf(char *buf, size_t cap, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(buf, cap, fmt, ap);
	va_end(ap);
	return n < 0 ? 0 : (size_t)n;
}

size_t os_page_size(void)
{
	return 4096;
}

void *os_reserve(size_t size, enum os_prot prot)
{
	(void)prot;
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	return p == MAP_FAILED ? NULL : p;
}

void os_release(void *addr, size_t size)
{
	munmap(addr, size);
}

int main(int argc, char **argv)
{
	if (argc < 2)
		return 2;
	int fuzz = !strcmp(argv[1], "-f");
	const char *path = fuzz ? argv[2] : argv[1];
	int fd = open(path, O_RDONLY);
	struct stat st;
	if (fd < 0 || fstat(fd, &st))
		return 2;
	size_t size = (size_t)st.st_size;
	/* a copy of its own size exactly, so that reading past it faults */
	unsigned char *img = malloc(size ? size : 1);
	if (!img || read(fd, img, size) != (ssize_t)size)
		return 2;
	static struct dwarf_inline in[DWARF_INLINES_MAX];
	static char line[64][160];
	if (fuzz) {
		for (uint64_t a = 0; a < 0x10000; a += 0x1001)
			dwarf_inlines(img, size, a, in, DWARF_INLINES_MAX, NULL, 0);
		return 0;
	}
	char buf[64];
	while (fgets(buf, sizeof(buf), stdin)) {
		uint64_t a = strtoull(buf, NULL, 16);
		static char outer[256];
		int n = dwarf_inlines(img, size, a, in, DWARF_INLINES_MAX, outer, sizeof(outer));
		line[0][0] = 0;
		dwarf_lines(img, size, &a, 1, line[0], sizeof(line[0]));
		const char *where = line[0][0] ? line[0] : "??:0";
		for (int i = 0; i < n; i++) {
			printf("%s\n%s\n", in[i].name[0] ? in[i].name : "??", where);
			where = in[i].call[0] ? in[i].call : "??:0";
		}
		printf("%s\n%s\n\n", outer[0] ? outer : "?", where);
	}
	return 0;
}
