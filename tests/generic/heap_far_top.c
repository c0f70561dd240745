// MODE: generic
// RUN: kasan_multi_shot
// Accesses far past a small object, beyond its redzone, into heap memory
// glibc has not handed out yet (the top chunk of the break's heap, of a
// thread arena's heap): reported as the nearest object's out-of-bounds
// access, as ASan reports them (its heap-overflow-large.cpp reads an
// int[5] at index 12, 100 and 10000; scariness_score_test #5 writes a
// 32-byte element 4 elements past a 100-element array). In the main thread
// and in a thread, whose arena is another heap.
// COUNT: 8 BUG: KASAN: slab-out-of-bounds
// NOT: ukasan: internal
#include "kasan_test.h"

#include <pthread.h>

struct s32 {
	char x[32];
};

KASAN_TEST static void far_reads(void)
{
	static const int index[] = {12, 100, 10000};
	int *x = malloc(5 * sizeof(int)); int aline = __LINE__;
	OPTIMIZER_HIDE_VAR(x);
	memset(x, 0, 5 * sizeof(int));
	for (int i = 0; i < 3; i++) {
		int *p = x + index[i];
		KASAN_EXPECT_FAIL(kasan_int_result = *(volatile int *)p, .type = "slab-out-of-bounds", .rw = "Read", .size = 4, .addr = p, .obj = x, .obj_size = 20, .alloc_line = aline);
	}
	free(x);
}

KASAN_TEST static void far_write(void)
{
	struct s32 *t = malloc(100 * sizeof(*t)); int aline = __LINE__;
	OPTIMIZER_HIDE_VAR(t);
	struct s32 *p = t + 104;
	KASAN_EXPECT_FAIL(memset(p, 0, sizeof(*p)), .type = "slab-out-of-bounds", .rw = "Write", .size = 32, .addr = p, .obj = t, .obj_size = 3200, .alloc_line = aline);
	free(t);
}

static void *thread_body(void *arg)
{
	(void)arg;
	far_reads();
	far_write();
	return NULL;
}

int main(void)
{
	printf("far heap\n"); /* stdout's buffer first */
	far_reads();
	far_write();
	pthread_t t;
	pthread_create(&t, NULL, thread_body, NULL);
	pthread_join(t, NULL);
	return 0;
}
