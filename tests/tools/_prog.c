/* A small program for the command-line checks: with "oob", overruns a
 * guarded object; with "early", writes past the object an early
 * constructor allocated. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ukasan.h"

extern char *early_buf __attribute__((weak));

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "oob")) {
		for (int i = 0; i < 1000; i++) {
			char *p = malloc(64);
			if (ukasan_is_kfence_address && ukasan_is_kfence_address(p) &&
			    ((uintptr_t)p + 64) % 4096 == 0) {
				p[64] = 1;
				break;
			}
		}
	}
	if (argc > 1 && !strcmp(argv[1], "early") && &early_buf)
		printf("early guarded %d\n", ukasan_is_kfence_address(early_buf) != 0);
	printf("ran\n");
	return 0;
}
