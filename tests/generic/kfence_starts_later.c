// MODE: generic
// RUN: kfence.sample_interval=100
// With the default sample interval, KFENCE's first sample in generic mode
// comes one interval after start, not at the first allocation: a short
// program's first objects get KASAN's redzones and full reports. KFENCE
// still samples afterwards.
// EXPECT: BUG: KASAN: slab-out-of-bounds in kfence_starts_later+0x
// COUNT: 1 BUG: KASAN:
// NOT: BUG: KFENCE
// STDOUT: first allocation: KASAN's
// STDOUT: KFENCE sampled one after 50 ms or more
#include "kasan_test.h"

#include <time.h>

static double now_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

KASAN_TEST void kfence_starts_later(void)
{
	double start = now_ms();
	char *p = malloc(24); int aline = __LINE__;
	printf("first allocation: %s\n", ukasan_is_kfence_address(p) ? "KFENCE's" : "KASAN's");
	fflush(stdout);
	OPTIMIZER_HIDE_VAR(p);
	KASAN_EXPECT_FAIL(kasan_int_result = ((volatile char *)p)[24], .type = "slab-out-of-bounds", .rw = "Read", .size = 1, .addr = p + 24, .obj = p, .obj_size = 24, .alloc_line = aline);
	free(p);
	double sampled = -1;
	/* From after the report, which a loaded machine may take seconds to
	 * symbolize. */
	double report_done = now_ms();
	while (now_ms() - report_done < 5000 && sampled < 0) {
		char *q = malloc(32);
		if (ukasan_is_kfence_address(q))
			sampled = now_ms() - start;
		free(q);
		usleep(1000);
	}
	/* The interval runs from ukasan's start, a little before main's: allow
	 * for a slow start on a busy machine. */
	printf("KFENCE sampled one after %s\n", sampled >= 50 ? "50 ms or more" : sampled < 0 ? "never" : "less than 50 ms");
}

int main(void)
{
	kfence_starts_later();
	return 0;
}
