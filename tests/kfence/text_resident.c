// ARCH: x86_64 -- under qemu-user the emulator reads the guest's code
// STDOUT: text_resident: libukasan.so's code resident in a preloaded program: within 64 KB
// STDOUT: bss_resident: libukasan.so's zeroed data resident: within 64 KB
/* The preload's code in every process: the kernel maps a file's pages 64 KB
 * around each fault, so code run at start, at each allocation and free, in
 * sampling and in the check at exit must sit together (src/hot_text.ld,
 * tools/hot_text.py), or nearly all of libukasan.so's code becomes every
 * process's resident memory (272-284 KB of 284 before). Threads, C and
 * aligned allocation, realloc, fork and exit run here; a function added to
 * those paths and not to hot_text.ld puts another window in and fails
 * this. signal() and exit() run too, as most programs call them (git's
 * exit() once took a second window, its signal() a third). Its zeroed data (.bss, 2.5 MB) likewise: every page the preload
 * writes is private memory of each process, and its small variables were
 * scattered between big tables (92 KB touched); hot_text.ld puts them
 * first. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <link.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "_alloc_test.h"

/* One window: the hot code and the PLT fill the first, 64 KB aligned. */
#define LIMIT_KB     64
#define BSS_LIMIT_KB 64

static void *churn(void *arg)
{
	void *keep[64] = {0};
	for (int i = 0; i < 40000; i++) {
		int k = i % 64;
		free(keep[k]);
		keep[k] = i % 7 ? malloc(1 + i % 300) : calloc(1, 1 + i % 5000);
		if (i % 11 == 0)
			keep[k] = realloc(keep[k], 1 + i % 900);
		if (i % 13 == 0) {
			free(keep[k]);
			keep[k] = aligned_alloc(64, 128);
		}
	}
	for (int k = 0; k < 64; k++)
		free(keep[k]);
	return arg;
}

/* Rss of libukasan.so's executable mapping, in KB; -1 if not found. */
static long text_rss_kb(void)
{
	FILE *f = fopen("/proc/self/smaps", "r");
	char line[512];
	int in_text = 0;
	long kb = -1;
	while (f && fgets(line, sizeof(line), f)) {
		unsigned long lo, hi;
		char perm[8];
		if (sscanf(line, "%lx-%lx %7s", &lo, &hi, perm) == 3)
			in_text = strstr(line, "/libukasan.so") && perm[2] == 'x';
		else if (in_text && !strncmp(line, "Rss:", 4))
			kb = atol(line + 4);
	}
	if (f)
		fclose(f);
	return kb;
}

/* libukasan.so's .bss: its writable segment past the file's bytes. */
static uintptr_t bss_lo, bss_hi;

static int find_bss(struct dl_phdr_info *info, size_t size, void *arg)
{
	(void)size;
	(void)arg;
	if (!info->dlpi_name || !strstr(info->dlpi_name, "/libukasan.so"))
		return 0;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_W))
			continue;
		uintptr_t a = info->dlpi_addr + ph->p_vaddr;
		bss_lo = (a + ph->p_filesz + 4095) & ~(uintptr_t)4095;
		bss_hi = (a + ph->p_memsz + 4095) & ~(uintptr_t)4095;
	}
	return 1;
}

/* Pages of it in memory, in KB; -1 if not found. */
static long bss_rss_kb(void)
{
	dl_iterate_phdr(find_bss, NULL);
	int fd = open("/proc/self/pagemap", O_RDONLY);
	if (!bss_lo || bss_hi <= bss_lo || fd < 0)
		return -1;
	long kb = 0;
	for (uintptr_t a = bss_lo; a < bss_hi; a += 4096) {
		uint64_t e = 0;
		if (pread(fd, &e, 8, (off_t)(a / 4096 * 8)) != 8)
			return -1;
		kb += (long)(e >> 63) * 4;
	}
	close(fd);
	return kb;
}

int main(void)
{
	signal(SIGPIPE, SIG_IGN);
	pthread_t t[2];
	for (int i = 0; i < 2; i++)
		CHECK(pthread_create(&t[i], NULL, churn, NULL) == 0);
	churn(NULL);
	for (int i = 0; i < 2; i++)
		CHECK(pthread_join(t[i], NULL) == 0);
	pid_t p = fork();
	CHECK(p >= 0);
	if (p == 0)
		_exit(churn(NULL) != NULL);
	int st;
	CHECK(waitpid(p, &st, 0) == p && st == 0);
	long kb = text_rss_kb();
	CHECK(kb >= 0);
	if (kb > LIMIT_KB)
		printf("text_resident: libukasan.so's code resident: %ld KB, over %d KB\n", kb,
		       LIMIT_KB);
	else
		printf("text_resident: libukasan.so's code resident in a preloaded program: within "
		       "%d KB\n",
		       LIMIT_KB);
	long bss = bss_rss_kb();
	CHECK(bss >= 0);
	if (bss > BSS_LIMIT_KB)
		printf("bss_resident: libukasan.so's zeroed data resident: %ld KB, over %d KB\n",
		       bss, BSS_LIMIT_KB);
	else
		printf("bss_resident: libukasan.so's zeroed data resident: within %d KB\n",
		       BSS_LIMIT_KB);
	fflush(stdout);
	exit(0); /* by name: the runtime's exit interposer */
}
