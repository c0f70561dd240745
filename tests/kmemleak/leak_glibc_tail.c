// MODE: generic
// glibc may hand out a chunk up to 16 bytes longer than asked (what is left
// of a free chunk is too small to be one: malloc gives it all). Those bytes
// are the object's right redzone too: left unpoisoned, the shadow showed a
// redzone ending before them, which is where the heap walk finds an object
// start, and it read the 16 bytes before as a header. Bytes that an older
// object left there, reading as a live header, were a leak of an object
// nobody allocated ("unreferenced object", empty backtrace); in a threaded
// program it was the quarantine's free records, whose thread id byte was the
// live state's. Here the program's own bytes do it, reliably: a freed
// 4000-byte buffer that held 16-byte records, then three objects over its
// memory, the middle one freed and its 16-byte longer chunk taken by an
// allocation 16 bytes shorter.
// RUN: kfence.sample_interval=0 kasan.quarantine_size=0
// NOT: unreferenced object
// NOT: BUG:
// STDOUT: chunk reused
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../include/ukasan.h"

#define SIZE 1200 /* above glibc's tcache, in a large bin */
#define BUFS 3

void *volatile kept[3]; /* live at exit, referenced */

int main(void)
{
	/* Records whose bytes read as a live header of an 8-byte object, at
	 * every 16-byte boundary of the buffers. */
	static const uint32_t record[4] = {0, 0, 8, 0x000100a4};
	void *buf[BUFS];
	for (int i = 0; i < BUFS; i++) {
		buf[i] = malloc(4000);
		for (int j = 0; j + 16 <= 4000; j += 16)
			memcpy((char *)buf[i] + j, record, 16);
	}
	for (int i = 0; i < BUFS; i++)
		free(buf[i]);
	ukasan_purge(); /* the memory goes back to glibc */

	kept[0] = malloc(SIZE);
	void *volatile mid = malloc(SIZE + 16);
	kept[1] = malloc(SIZE);
	free(mid);
	ukasan_purge();
	/* glibc's free chunk of mid is 16 bytes longer than this one needs. */
	kept[2] = malloc(SIZE);
	if (kept[2] == mid)
		printf("chunk reused\n");
	return 0;
}
