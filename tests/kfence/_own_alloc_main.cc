/* An executable with its own allocator, as Firefox's: it defines malloc,
 * free, calloc, realloc, operator new and delete, but not sized delete,
 * new[] or reallocarray, which bind to libukasan.so. Every object carries a
 * header with a magic, a different one for new, which the matching free
 * checks: a pointer of another allocator, or of the wrong family, aborts.
 * Built over mmap, or with -DOVER_LIBC over glibc's __libc_malloc & co, the
 * way allocators that wrap glibc's do. Argument "uaf": a use-after-free on
 * a guarded object instead. */
#include <new>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "ukasan.h"

extern "C" {
void lib_work(void);
void *__libc_malloc(size_t);
void __libc_free(void *);
void *__libc_realloc(void *, size_t);
}

enum { HDR = 16, MALLOC_MAGIC = 0x6d616c6c, NEW_MAGIC = 0x6e657721 };
struct hdr {
	uint32_t magic;
	uint32_t pad;
	size_t size;
};

#ifdef OVER_LIBC
static void *raw_alloc(size_t n)
{
	return __libc_malloc(n);
}
static void raw_free(void *p)
{
	__libc_free(p);
}
#else
/* A bump allocator over one mapping, never reused. */
static char *arena, *arena_end;
static void *raw_alloc(size_t n)
{
	if (!arena) {
		arena = (char *)mmap(NULL, 64 << 20, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		                     -1, 0);
		arena_end = arena + (64 << 20);
	}
	n = (n + 15) & ~(size_t)15;
	if ((size_t)(arena_end - arena) < n)
		return NULL;
	void *p = arena;
	arena += n;
	return p;
}
static void raw_free(void *p)
{
	(void)p;
}
#endif

static void *wrap(size_t n, uint32_t magic)
{
	struct hdr *h = (struct hdr *)raw_alloc(n + HDR);
	if (!h)
		return NULL;
	h->magic = magic;
	h->size = n;
	return (char *)h + HDR;
}

static struct hdr *check(void *p, uint32_t magic)
{
	struct hdr *h = (struct hdr *)((char *)p - HDR);
	if (h->magic != magic) {
		static const char msg[] = "own allocator: a pointer it did not make\n";
		fwrite(msg, 1, sizeof(msg) - 1, stderr);
		abort();
	}
	return h;
}

static long news, deletes;

extern "C" {
void *malloc(size_t n)
{
	return wrap(n, MALLOC_MAGIC);
}
void free(void *p)
{
	if (p)
		raw_free(check(p, MALLOC_MAGIC));
}
void *calloc(size_t n, size_t size)
{
	void *p = malloc(n * size);
	if (p)
		memset(p, 0, n * size);
	return p;
}
void *realloc(void *p, size_t n)
{
	if (!p)
		return malloc(n);
#ifdef OVER_LIBC
	struct hdr *h = (struct hdr *)__libc_realloc(check(p, MALLOC_MAGIC), n + HDR);
	if (!h)
		return NULL;
	h->size = n;
	return (char *)h + HDR;
#else
	size_t old = check(p, MALLOC_MAGIC)->size;
	void *q = malloc(n);
	if (q)
		memcpy(q, p, old < n ? old : n);
	free(p);
	return q;
#endif
}
}

void *operator new(size_t n)
{
	void *p = wrap(n, NEW_MAGIC);
	if (!p)
		throw std::bad_alloc();
	news++;
	return p;
}

void operator delete(void *p) noexcept
{
	if (p) {
		deletes++;
		raw_free(check(p, NEW_MAGIC));
	}
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "uaf")) {
		for (int i = 0; i < 1000; i++) {
			char *p = (char *)malloc(40);
			if (ukasan_is_kfence_address && ukasan_is_kfence_address(p)) {
				free(p);
				return ((volatile char *)p)[8];
			}
		}
		return 3;
	}
	/* The executable's own calls of what it does not define. */
	int *a = (int *)reallocarray(NULL, 10, sizeof(int));
	a = (int *)reallocarray(a, 1000, sizeof(int));
	free(a);
	long *l = new long[4];
	delete[] l;
	operator delete(operator new(24), (size_t)24);
	printf("exe ok\n");
	lib_work();
	int guarded = 0;
	for (int i = 0; i < 100; i++) {
		char *p = (char *)malloc(32);
		guarded += ukasan_is_kfence_address && ukasan_is_kfence_address(p);
		free(p);
	}
	printf("new %ld delete %ld guarded %d\n", news, deletes, guarded);
	return news == deletes && news >= 7 ? 0 : 2;
}
