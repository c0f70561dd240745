// RUN: kfence.sample_rate=1
// NOT: BUG: KFENCE
// STDOUT: depot ok
#include <unistd.h>

#include "kfence_test.h"

/* Under the preload at its defaults (no KASAN, no kmemleak=on) only
 * KFENCE's samples save stacks, and the stack depot's table grows from one
 * page, not 8 MiB at once: each new stack takes a slot at random, so 4096
 * of them touched most of the big table's pages (7 MiB resident), and 128
 * of them touched 128 pages of a 512 KiB one. Every allocation is sampled
 * here, each from its own stack: up to 12 levels, each through one of two
 * call sites. */
static int guarded;

static __attribute__((noinline)) void leaf(void)
{
	char *p = malloc(32);
	if (!p)
		exit(71);
	if (ukasan_is_kfence_address && ukasan_is_kfence_address(p))
		guarded++;
	asm volatile("" : : "r"(p) : "memory");
	free(p);
}

static void walk(unsigned bits, int depth);

static __attribute__((noinline)) void via_a(unsigned bits, int depth)
{
	walk(bits, depth);
	asm volatile("" : : : "memory");
}

static __attribute__((noinline)) void via_b(unsigned bits, int depth)
{
	walk(bits, depth);
	asm volatile("nop" : : : "memory");
}

static __attribute__((noinline)) void walk(unsigned bits, int depth)
{
	if (!depth)
		leaf();
	else if (bits & 1)
		via_a(bits >> 1, depth - 1);
	else
		via_b(bits >> 1, depth - 1);
	asm volatile("" : : : "memory");
}

int main(void)
{
	leaf(); /* the depot is made */
	/* A few stacks, as most processes have, cost their records (128 of
	 * about 100 bytes) and a page or two of table. Measured against as
	 * many samples from one stack, which take as many of the pool's pages. */
	long before = resident_kb_of(1);
	for (int i = 0; i < 128; i++)
		walk(0, 8);
	long one = resident_kb_of(1) - before;
	before = resident_kb_of(1);
	for (unsigned bits = 0; bits < 128; bits++)
		walk(bits, 7);
	long few = resident_kb_of(1) - before;
	if (few - one > 64) {
		printf("128 stacks: resident memory grew by %ld KiB, by %ld for one\n", few, one);
		return 74;
	}
	before = resident_kb();
	for (unsigned bits = 0; bits < 4096; bits++)
		walk(bits, 12);
	if (guarded < 4000) {
		printf("only %d objects guarded\n", guarded);
		return 72;
	}
	/* The stacks' records (~0.8 MiB) and the pool's pages (1 MiB) grow
	 * too; the big table alone would add 7 MiB. */
	long grown = resident_kb() - before;
	if (grown > 4096) {
		printf("resident memory grew by %ld KiB\n", grown);
		return 73;
	}
	printf("depot ok\n");
	return 0;
}
