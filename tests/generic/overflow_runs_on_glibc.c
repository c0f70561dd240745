// MODE: generic
// RUN: kasan.quarantine_size=0
// RUN-ALSO: kasan.multi_shot=1
// A program runs on after a report and makes the write it was reported
// for. Objects of 17-24 and 33-40 bytes end at glibc's size field of the
// next chunk, which is all their right redzone: a write one byte past
// them, by a store or by memset, lands on that field. Here a thread makes
// such writes past many objects, frees half of them and ends (its chunks
// go back to glibc, which checks each one's size and its neighbour's); the
// main thread then frees the rest, from another thread than the writer,
// and allocates and frees again. glibc must find its heap whole: without
// the size fields put back, it aborts ("free(): invalid size").
// STATUS: 1
// EXPECT: BUG: KASAN: slab-out-of-bounds in writer+0x
// EXPECT-RE: ^Write of size 1 at addr
// STDOUT: heap whole after 512 writes
#include "kasan_test.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 512

static char *objs[N];

static size_t size_of(int i)
{
	return i % 2 ? 40 : 24;
}

static void *writer(void *arg)
{
	(void)arg;
	for (int i = 0; i < N; i++) {
		objs[i] = malloc(size_of(i));
		OPTIMIZER_HIDE_VAR(objs[i]);
	}
	for (int i = 0; i < N; i++) {
		if (i % 4 == 3) {
			memset(objs[i], 'm', size_of(i) + 1);
		} else {
			volatile char *p = objs[i];
			p[size_of(i)] = 'x';
		}
	}
	for (int i = 0; i < N; i += 2)
		free(objs[i]);
	return NULL;
}

int main(void)
{
	pthread_t t;
	if (pthread_create(&t, NULL, writer, NULL) || pthread_join(t, NULL))
		return 2;
	for (int i = 1; i < N; i += 2)
		free(objs[i]);
	for (int round = 0; round < 4; round++) {
		for (int i = 0; i < N; i++) {
			objs[i] = malloc(size_of(i + round));
			OPTIMIZER_HIDE_VAR(objs[i]);
		}
		for (int i = 0; i < N; i++)
			free(objs[i]);
	}
	printf("heap whole after %d writes\n", N);
	return 0;
}
