// MODE: generic
// RUN: kasan.quarantine_size=0
// A program runs on after a report and makes the write it was reported
// for. An overflow by one 8-byte element past objects of every small size
// must land in ukasan's own redzone, never on glibc's size field of the
// next chunk: here every object is written one long past its end, then
// freed straight back to glibc (no quarantine), which checks its chunks,
// and the run ends with the status of a run with reports, not glibc's
// abort. (Objects of 40 bytes once had only glibc's next size field as
// their right redzone: "free(): invalid size" after the report.)
// STATUS: 1
// EXPECT: BUG: KASAN: slab-out-of-bounds in overflow_runs_on+0x
// EXPECT-RE: ^Write of size 8 at addr
// EXPECT-RE: ^ukasan: 1 report in this run \(pid \d+\); \d+ more bad accesses not reported
// STDOUT: all freed and allocated again
#include "kasan_test.h"

#include <stdio.h>

#define N 64

KASAN_TEST void overflow_runs_on(void)
{
	static long *objs[N * 8];
	int k = 0;
	for (int size = 8; size <= 128; size += 8)
		for (int i = 0; i < N / 2; i++, k++) {
			objs[k] = malloc(size);
			OPTIMIZER_HIDE_VAR(objs[k]);
			objs[k][size / 8] = 0x4141414141414141l;
		}
	for (int i = 0; i < k; i++)
		free(objs[i]);
	for (int i = 0; i < k; i++)
		objs[i] = malloc(24 + (i % 5) * 16);
	for (int i = 0; i < k; i++)
		free(objs[i]);
	printf("all freed and allocated again\n");
}

int main(void)
{
	overflow_runs_on();
	return 0;
}
