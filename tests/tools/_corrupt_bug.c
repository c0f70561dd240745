/* The bug of the corrupted-image tests (check_corrupt_images.py): a
 * use-after-free read, two calls deep so that the report's stacks cross
 * frames the unwinder reads from .eh_frame, then a clean exit. Built plain
 * (KFENCE finds it, kfence.sample_rate=1) and with ukasan-cc (generic
 * KASAN). */
#include <stdio.h>
#include <stdlib.h>

static char *volatile held;

__attribute__((noinline)) static char *make(size_t n)
{
	char *p = malloc(n);
	asm volatile("" : : "r"(p) : "memory");
	return p;
}

__attribute__((noinline)) static int use_after_free(void)
{
	held = make(24);
	free(held);
	return ((volatile char *)held)[5];
}

int main(void)
{
	int v = use_after_free();
	printf("survived %d\n", v >= 0);
	return 0;
}
