// MODE: generic
// RUN: kasan.quarantine_size=0 kasan_multi_shot
// An access far past a small object into heap memory that was handed out
// and came back to glibc (here at once: no quarantine), merged into its
// free memory: that memory reads as heap redzone again, as ASan's chunks
// do when they leave its quarantine, so the access is reported as the
// nearest object's out-of-bounds access. In the main thread and in a
// thread (its arena's heap).
// COUNT: 2 BUG: KASAN: slab-out-of-bounds
// NOT: ukasan: internal
#include "kasan_test.h"

#include <pthread.h>

KASAN_TEST static void far_into_freed(void)
{
	static char *a[64];
	int *x = malloc(5 * sizeof(int)); int aline = __LINE__;
	OPTIMIZER_HIDE_VAR(x);
	/* The 64 KiB after x: handed out, written, given back. */
	for (int i = 0; i < 64; i++)
		memset(a[i] = malloc(1000), 1, 1000);
	for (int i = 0; i < 64; i++)
		free(a[i]);
	int *p = x + 1000;
	KASAN_EXPECT_FAIL(kasan_int_result = *(volatile int *)p, .type = "slab-out-of-bounds", .rw = "Read", .size = 4, .addr = p, .obj = x, .obj_size = 20, .alloc_line = aline);
	free(x);
}

static void *thread_body(void *arg)
{
	(void)arg;
	far_into_freed();
	return NULL;
}

int main(void)
{
	printf("far heap, freed\n"); /* stdout's buffer first */
	far_into_freed();
	pthread_t t;
	pthread_create(&t, NULL, thread_body, NULL);
	pthread_join(t, NULL);
	return 0;
}
