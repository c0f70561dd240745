// ARCH: aarch64 -- memory tagging is arm64's
// RUN: kasan=on kasan_multi_shot kfence.sample_interval=0
// COUNT: 2 BUG: KASAN:
#include "hw_tags/hw_tags_test.h"

#include <pthread.h>

/* After a report only the faulting thread's checks are off (the kernel
 * turns them off on one CPU): another thread, the main one, is still
 * checked and reported with no allocation or free since. */
static char *obj;
static int alloc_line, main_tid;

static HW_TEST void *first(void *arg)
{
	(void)arg;
	HW_EXPECT_FAIL(hw_int_result = obj[48], .type = "slab-out-of-bounds", .rw = "Read", .size = 1, .addr = obj + 48, .mem = "00", .obj = obj, .obj_size = 40, .alloc_line = alloc_line, .alloc_tid = main_tid);
	return NULL;
}

/* Right after the other thread's report, with no allocation between. */
static HW_TEST void second(void)
{
	HW_EXPECT_FAIL(obj[56] = 1, .type = "slab-out-of-bounds", .rw = "Write", .size = 1, .addr = obj + 56, .mem = "00", .obj = obj, .obj_size = 40, .alloc_line = alloc_line);
}

int main(void)
{
	pthread_t a;
	main_tid = (int)gettid();
	alloc_line = __LINE__ + 1;
	obj = malloc(40);
	fflush(stdout);
	pthread_create(&a, NULL, first, NULL);
	pthread_join(a, NULL);
	second();
	free(obj);
	return 0;
}
