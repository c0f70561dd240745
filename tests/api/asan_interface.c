// MODE: generic
// RUN: kasan_multi_shot
// Every function of <sanitizer/asan_interface.h> links and, where it has a
// meaning here, answers as ASan documents: the report getters after a
// recovered report (type, address, access, size), describe_address naming
// the heap object and its allocation stack, locate_address, the
// allocation and free stacks, poisoning, fake stacks.
// EXPECT: BUG: KASAN: slab-out-of-bounds in main+0x
// EXPECT: Address
// EXPECT: Allocated by task
// EXPECT: The buggy address belongs to the object at
// EXPECT: which belongs to the cache malloc of size 13
// EXPECT: The buggy address is located 0 bytes inside of
// EXPECT-RE: ^Read of size 4 at addr [0-9a-f]{16}
// EXPECT: done
#include <sanitizer/asan_interface.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(c)                                                                                   \
	do {                                                                                       \
		if (!(c)) {                                                                        \
			fprintf(stderr, "FAIL line %d: %s\n", __LINE__, #c);                     \
			exit(3);                                                                   \
		}                                                                                  \
	} while (0)

static char global_array[40];

__attribute__((noinline)) static char *make(size_t n)
{
	return malloc(n);
}

int main(void)
{
	CHECK(!__asan_report_present());
	char *volatile p = make(13);
	/* a recovered report, then the getters */
	p[13] = 1;
	CHECK(__asan_report_present());
	CHECK(__asan_get_report_address() == p + 13);
	CHECK(__asan_get_report_access_type() == 1);
	CHECK(__asan_get_report_access_size() == 1);
	CHECK(!strcmp(__asan_get_report_description(), "slab-out-of-bounds"));
	CHECK(__asan_get_report_pc() != NULL);
	(void)__asan_get_report_bp();
	(void)__asan_get_report_sp();

	__asan_describe_address(p);

	char name[64];
	void *region;
	size_t size;
	CHECK(!strcmp(__asan_locate_address(p + 3, name, sizeof(name), &region, &size), "heap"));
	CHECK(region == p && size == 13);
	CHECK(!strcmp(__asan_locate_address(global_array + 5, name, sizeof(name), &region, &size),
	              "global"));
	CHECK(region == global_array && size == sizeof(global_array));
	CHECK(!strcmp(name, "global_array"));

	void *trace[16];
	int tid = 0;
	size_t n = __asan_get_alloc_stack(p, trace, 16, &tid);
	CHECK(n >= 2 && tid > 0);
	CHECK(__asan_get_free_stack(p, trace, 16, &tid) == 0);
	CHECK(__asan_update_allocation_context(p) == 1);

	CHECK(!__asan_address_is_poisoned(p + 12));
	CHECK(__asan_address_is_poisoned(p + 13));
	CHECK(__asan_region_is_poisoned(p, 20) == p + 13);
	__asan_poison_memory_region(p, 8);
	CHECK(__asan_address_is_poisoned(p));
	__asan_unpoison_memory_region(p, 8);
	CHECK(!__asan_address_is_poisoned(p));

	size_t scale, offset;
	__asan_get_shadow_mapping(&scale, &offset);
	CHECK(scale == 3 && offset != 0);

	free(p);
	CHECK(__asan_get_free_stack(p, trace, 16, &tid) >= 2);

	/* fake stacks are on by default (kasan.stack_use_after_return): this
	 * frame, whose objects have their addresses taken, is on one */
	void *fs = __asan_get_current_fake_stack(), *beg = NULL, *end = NULL;
	CHECK(fs != NULL);
	CHECK(__asan_addr_is_in_fake_stack(fs, &n, &beg, &end) != NULL);
	CHECK((char *)beg <= (char *)&n && (char *)&n < (char *)end);
	CHECK(__asan_addr_is_in_fake_stack(NULL, &n, NULL, NULL) == NULL);
	/* a report the program makes itself */
	char *q = make(16);
	__asan_report_error(__builtin_return_address(0), NULL, NULL, q + 16, 0, 4);
	CHECK(__asan_get_report_address() == q + 16);
	CHECK(__asan_get_report_access_type() == 0);
	CHECK(__asan_get_report_access_size() == 4);
	free(q);
	/* __asan_set_death_callback, __asan_set_error_report_callback and
	 * __asan_on_error belong to the fatal path's tests. */
	__asan_handle_no_return();
	__asan_print_accumulated_stats();
	fprintf(stderr, "done\n");
	return 0;
}
