// MODE: generic
// RUN: kasan.stats=1
// Every function of <sanitizer/common_interface_defs.h>,
// <sanitizer/lsan_interface.h> and clang's allocator_interface.h links;
// where it has a meaning here it answers as ASan documents: allocated size
// and ownership, the malloc/free hooks (pointer and size), a stack trace in
// the report format, symbolizing a pc, the crash state, the LSan no-ops.
// The heap counters are kasan.stats' (kept only when it is on).
// EXPECT: Call Trace:
// EXPECT: main+0x
// EXPECT: SUMMARY: test summary
// EXPECT: done
// NOT: BUG: KASAN
#include <sanitizer/common_interface_defs.h>
#include <sanitizer/lsan_interface.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* clang's allocator_interface.h; gcc ships none */
size_t __sanitizer_get_estimated_allocated_size(size_t size);
int __sanitizer_get_ownership(const volatile void *p);
size_t __sanitizer_get_allocated_size(const volatile void *p);
size_t __sanitizer_get_current_allocated_bytes(void);
size_t __sanitizer_get_heap_size(void);
size_t __sanitizer_get_free_bytes(void);
size_t __sanitizer_get_unmapped_bytes(void);
int __sanitizer_install_malloc_and_free_hooks(void (*m)(const volatile void *, size_t),
                                              void (*f)(const volatile void *));
void __sanitizer_purge_allocator(void);
/* clang's coverage_interface.h: no-ops here */
void __sanitizer_cov_dump(void);
void __sanitizer_cov_reset(void);
void __sanitizer_dump_coverage(const uintptr_t *pcs, uintptr_t len);

#define CHECK(c)                                                                                   \
	do {                                                                                       \
		if (!(c)) {                                                                        \
			fprintf(stderr, "FAIL line %d: %s\n", __LINE__, #c);                     \
			exit(3);                                                                   \
		}                                                                                  \
	} while (0)

static const volatile void *last_malloc, *last_free;
static size_t last_size;
static int mallocs, frees;
static void on_malloc(const volatile void *p, size_t n)
{
	last_malloc = p;
	last_size = n;
	mallocs++;
}
static void on_free(const volatile void *p)
{
	last_free = p;
	frees++;
}

/* through pointers, so the compilers keep each call */
static void *(*volatile do_malloc)(size_t) = malloc;
static void *(*volatile do_calloc)(size_t, size_t) = calloc;
static void (*volatile do_free)(void *) = free;

int main(void)
{
	char *p = malloc(13);
	int local;
	CHECK(__sanitizer_get_allocated_size(p) == 13);
	CHECK(__sanitizer_get_ownership(p) == 1);
	CHECK(__sanitizer_get_ownership(&local) == 0);
	CHECK(__sanitizer_get_ownership(p + 1) == 0);
	CHECK(__sanitizer_get_estimated_allocated_size(13) == 13);
	CHECK(__sanitizer_get_current_allocated_bytes() >= 13);
	CHECK(__sanitizer_get_heap_size() >= __sanitizer_get_current_allocated_bytes());
	(void)__sanitizer_get_free_bytes();
	(void)__sanitizer_get_unmapped_bytes();

	CHECK(__sanitizer_install_malloc_and_free_hooks(on_malloc, on_free) == 1);
	char *q = do_malloc(21);
	CHECK(last_malloc == q && last_size == 21 && mallocs == 1);
	do_free(q);
	CHECK(last_free == q && frees == 1);
	char *c = do_calloc(3, 5);
	CHECK(last_malloc == c && last_size == 15);
	do_free(c);
	for (int i = 0; i < 4; i++)
		CHECK(__sanitizer_install_malloc_and_free_hooks(on_malloc, on_free) == 1);
	CHECK(__sanitizer_install_malloc_and_free_hooks(on_malloc, on_free) == 0);
	free(p);
	__sanitizer_purge_allocator();
	CHECK(__sanitizer_get_ownership(p) == 0);

	__sanitizer_print_stack_trace();
	char buf[256];
	__sanitizer_symbolize_pc(__builtin_return_address(0), "%p %F %L", buf, sizeof(buf));
	CHECK(strstr(buf, "in __libc_start") || strstr(buf, "libc.so"));
	char mod[256];
	void *off = NULL;
	CHECK(__sanitizer_get_module_and_offset_for_pc((void *)main, mod, sizeof(mod), &off));
	CHECK(strstr(mod, "common_interface") && off != NULL);
	__sanitizer_symbolize_global(&mallocs, "%g", buf, sizeof(buf));

	CHECK(__sanitizer_acquire_crash_state() == 1);
	CHECK(__sanitizer_acquire_crash_state() == 0);
	__sanitizer_report_error_summary("SUMMARY: test summary");
	__sanitizer_set_report_path("stderr");
	CHECK(__sanitizer_get_report_path() == NULL);
	__sanitizer_set_report_fd((void *)2);
	__sanitizer_sandbox_on_notify(NULL);
	__sanitizer_print_memory_profile(100, 10);

	uint64_t w = 0;
	__sanitizer_unaligned_store64(&w, 7);
	__sanitizer_unaligned_store32(&w, 5);
	__sanitizer_unaligned_store16(&w, 3);
	CHECK(__sanitizer_unaligned_load64(&w) == 3 && __sanitizer_unaligned_load32(&w) == 3 &&
	      __sanitizer_unaligned_load16(&w) == 3);

	char *s = malloc(64);
	__sanitizer_annotate_contiguous_container(s, s + 64, s + 64, s + 16);
	CHECK(__sanitizer_verify_contiguous_container(s, s + 16, s + 64));
	CHECK(__sanitizer_contiguous_container_find_bad_address(s, s + 32, s + 64) == s + 16);
#ifdef __clang__
	__sanitizer_annotate_double_ended_contiguous_container(s, s + 64, s, s + 16, s + 8, s + 32);
	CHECK(__sanitizer_verify_double_ended_contiguous_container(s, s + 8, s + 32, s + 64));
	CHECK(__sanitizer_double_ended_contiguous_container_find_bad_address(s, s + 8, s + 40,
	                                                                     s + 64) == s + 32);
#endif
	__sanitizer_annotate_contiguous_container(s, s + 64, s + 16, s + 64);
	free(s);

	/* LSan: no leak checker yet; each is a no-op */
	__lsan_disable();
	__lsan_enable();
	__lsan_ignore_object(p);
	__lsan_register_root_region(buf, sizeof(buf));
	__lsan_unregister_root_region(buf, sizeof(buf));
	__lsan_do_leak_check();
	CHECK(__lsan_do_recoverable_leak_check() == 0);
	/* the fiber functions: tests/api/fiber.c */
	uintptr_t pcs[1] = {(uintptr_t)&main};
	__sanitizer_cov_reset();
	__sanitizer_dump_coverage(pcs, 1);
	__sanitizer_cov_dump();
	fprintf(stderr, "done\n");
	return 0;
}
