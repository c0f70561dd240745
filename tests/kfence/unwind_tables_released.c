// ARCH: x86_64 -- under qemu-user, /proc/self/pagemap describes the emulator
// RUN: kfence.sample_interval=1
// NOT: BUG: KFENCE
// STDOUT: unwind tables ok
/* A sampled stack is unwound by the program's CFI: its .eh_frame_hdr and
 * .eh_frame. The kernel maps 64 KiB of a file around each page read, so
 * the samples of a preloaded program left those windows resident, though
 * the program never reads them (git: 340 KiB). Where the preload samples
 * by time, a walk gives back the pages of unwind tables it read
 * (cfi_tables_of). Here 256 functions put their FDEs first, and the
 * allocations come through a chain of 64 more, whose FDEs the walk reads:
 * no page of the tables past the one .eh_frame_hdr starts in may stay
 * mapped. Then the tables are copied into anonymous memory at the same
 * place, as programs that move their segments to huge pages do, and
 * sampled through a second chain: a discard there would zero them. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <link.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "kfence_test.h"

#define PAD(n)                                                                                     \
	__attribute__((used, noinline)) int pad_##n(int x)                                         \
	{                                                                                          \
		return x * n + 1;                                                                  \
	}
#define PAD4(n)  PAD(n##0) PAD(n##1) PAD(n##2) PAD(n##3)
#define PAD16(n) PAD4(n##0) PAD4(n##1) PAD4(n##2) PAD4(n##3)
#define PAD64(n) PAD16(n##0) PAD16(n##1) PAD16(n##2) PAD16(n##3)
PAD64(1)
PAD64(2) PAD64(3) PAD64(4)

    static int guarded;

__attribute__((noinline)) static void *leaf(int d)
{
	char *p = malloc(24 + d % 8);
	if (p && ukasan_is_kfence_address && ukasan_is_kfence_address(p))
		guarded++;
	asm volatile("" : : "r"(p) : "memory");
	return p;
}

#define STEP(name, next)                                                                           \
	__attribute__((noinline)) static void *name(int d)                                         \
	{                                                                                          \
		void *p = next(d + 1);                                                             \
		asm volatile("" : "+r"(p) : : "memory");                                           \
		return p;                                                                          \
	}
#define STEP4(p, next) STEP(p##_3, next) STEP(p##_2, p##_3) STEP(p##_1, p##_2) STEP(p##_0, p##_1)
#define STEP16(p, next)                                                                            \
	STEP4(p##_3, next) STEP4(p##_2, p##_3_0) STEP4(p##_1, p##_2_0) STEP4(p##_0, p##_1_0)
#define STEP64(p, next)                                                                            \
	STEP16(p##_3, next)                                                                        \
	STEP16(p##_2, p##_3_0_0) STEP16(p##_1, p##_2_0_0) STEP16(p##_0, p##_1_0_0)
STEP64(c, leaf)
STEP64(d, leaf)

/* The pages of the program's unwind tables, from the first whole one after
 * .eh_frame_hdr's start to the end of its segment. */
static uintptr_t tables_lo, tables_hi;

static int find_tables(struct dl_phdr_info *info, size_t size, void *arg)
{
	(void)size;
	(void)arg;
	if (info->dlpi_name && info->dlpi_name[0])
		return 0; /* the program is the first, with no name */
	uintptr_t hdr = 0;
	for (int i = 0; i < info->dlpi_phnum; i++)
		if (info->dlpi_phdr[i].p_type == PT_GNU_EH_FRAME)
			hdr = info->dlpi_addr + info->dlpi_phdr[i].p_vaddr;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uintptr_t a = info->dlpi_addr + ph->p_vaddr;
		if (ph->p_type == PT_LOAD && hdr >= a && hdr < a + ph->p_memsz) {
			tables_lo = (hdr + 4095) & ~(uintptr_t)4095;
			tables_hi = a + ph->p_memsz;
		}
	}
	return 1;
}

static int mapped_pages(void)
{
	int fd = open("/proc/self/pagemap", O_RDONLY);
	if (fd < 0)
		exit(70);
	int n = 0;
	for (uintptr_t a = tables_lo; a < tables_hi; a += 4096) {
		uint64_t e = 0;
		if (pread(fd, &e, 8, (off_t)(a / 4096 * 8)) != 8)
			exit(71);
		n += (int)(e >> 63);
	}
	close(fd);
	return n;
}

/* 30 ms of allocations through chain, a sample every millisecond. */
static void allocate_for_30ms(void *(*chain)(int))
{
	struct timespec t0, t;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		for (int i = 0; i < 100; i++)
			free(chain(i));
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while ((t.tv_sec - t0.tv_sec) * 1000000000L + (t.tv_nsec - t0.tv_nsec) < 30000000L);
}

int main(void)
{
	dl_iterate_phdr(find_tables, NULL);
	if (!tables_lo || tables_hi < tables_lo + 2 * 4096) {
		printf("the unwind tables span %lu bytes: too few to test\n",
		       (unsigned long)(tables_hi - tables_lo));
		return 72;
	}
	allocate_for_30ms(c_0_0_0);
	int mapped = mapped_pages();
	if (guarded < 2) {
		printf("only %d allocations guarded\n", guarded);
		return 73;
	}
	if (mapped) {
		printf("%d pages of the unwind tables mapped after %d samples\n", mapped, guarded);
		return 74;
	}

	size_t len = tables_hi - tables_lo;
	char *copy = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (copy == MAP_FAILED)
		return 75;
	memcpy(copy, (void *)tables_lo, len);
	if (mmap((void *)tables_lo, len, PROT_READ | PROT_WRITE,
	         MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) != (void *)tables_lo)
		return 76;
	memcpy((void *)tables_lo, copy, len);
	mprotect((void *)tables_lo, len, PROT_READ);
	guarded = 0;
	allocate_for_30ms(d_0_0_0);
	if (guarded < 2) {
		printf("only %d allocations guarded through the copied tables\n", guarded);
		return 77;
	}
	if (memcmp((void *)tables_lo, copy, len)) {
		printf("the copied unwind tables were changed\n");
		return 78;
	}
	printf("unwind tables ok\n");
	return 0;
}
