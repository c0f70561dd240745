// A module's .bss ends where its ELF header says (its writable segment's
// p_vaddr + p_memsz), not where the anonymous mapping after its file ends:
// the kernel merges the anonymous memory mapped next into that mapping
// (Python's object arenas, right after a library it loaded, kept its
// leaks alive in about one run of ten). Here the program maps a module of
// its own making (an ELF header whose writable segment has one page of
// .bss) followed by two anonymous pages, as the dynamic linker would; the
// .bss's last word keeps one object, the word right after the .bss holds
// the only pointer to another: that one is reported, the first is not.
// RUN: kmemleak=on kfence.sample_interval=0
// CFLAGS: -O1
// STATUS: 1
// EXPECT-RE: unreferenced object 0x[0-9a-f]{16} \(size 40\):(\n.*){5,16}\n    \[<[0-9a-f]+>\] lose_past_bss\+0x
// COUNT: 1 unreferenced object 0x
#include <elf.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "leak_test.h"

static char *module;
static size_t page;

/* A file holding an ELF header and one page of data, mapped as a module:
 * its header page read-only, its data page writable, and two anonymous
 * pages after, the first its .bss (p_memsz is two pages), the second
 * not the module's. */
static void map_module(void)
{
	page = (size_t)sysconf(_SC_PAGESIZE);
	const char *dir = getenv("UKASAN_TEST_TMP");
	char path[4096];
	snprintf(path, sizeof(path), "%s/moduleXXXXXX", dir && *dir ? dir : "/tmp");
	int fd = mkstemp(path);
	char *img = calloc(2, page);
	if (fd < 0 || !img) {
		perror("module file");
		exit(3);
	}
	ElfW(Ehdr) *eh = (ElfW(Ehdr) *)img;
	memcpy(eh->e_ident, ELFMAG, SELFMAG);
	eh->e_ident[EI_CLASS] = sizeof(void *) == 8 ? ELFCLASS64 : ELFCLASS32;
	eh->e_type = ET_DYN;
	eh->e_phoff = sizeof(*eh);
	eh->e_phentsize = sizeof(ElfW(Phdr));
	eh->e_phnum = 2;
	ElfW(Phdr) *ph = (ElfW(Phdr) *)(img + sizeof(*eh));
	ph[0] = (ElfW(Phdr)){.p_type = PT_LOAD, .p_flags = PF_R, .p_filesz = page, .p_memsz = page};
	ph[1] = (ElfW(Phdr)){.p_type = PT_LOAD,
	                     .p_flags = PF_R | PF_W,
	                     .p_offset = page,
	                     .p_vaddr = page,
	                     .p_filesz = page,
	                     .p_memsz = 2 * page};
	if (write(fd, img, 2 * page) != (ssize_t)(2 * page)) {
		perror("write");
		exit(3);
	}
	free(img);
	module = mmap(NULL, 4 * page, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (module == MAP_FAILED ||
	    mmap(module, page, PROT_READ, MAP_PRIVATE | MAP_FIXED, fd, 0) == MAP_FAILED ||
	    mmap(module + page, page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_FIXED, fd,
	         (off_t)page) == MAP_FAILED ||
	    mmap(module + 2 * page, 2 * page, PROT_READ | PROT_WRITE,
	         MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) == MAP_FAILED) {
		perror("mmap");
		exit(3);
	}
	close(fd);
	unlink(path);
}

LEAK_TEST void keep_in_bss(void)
{
	char *p = malloc(24);
	memset(p, 1, 24);
	memcpy(module + 3 * page - sizeof(p), &p, sizeof(p));
}

LEAK_TEST void lose_past_bss(void)
{
	char *p = malloc(40);
	memset(p, 2, 40);
	memcpy(module + 3 * page, &p, sizeof(p));
}

int main(void)
{
	map_module();
	run_deep(keep_in_bss);
	run_deep(lose_past_bss);
	clear_stack();
	return 0;
}
