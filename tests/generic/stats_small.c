// MODE: generic
// VARIANTS: gcc clang
// RUN: kasan.stats=1
// kasan.stats=1 on a program with one small object: its shadow (whole
// pages, stacks' and globals' too) outweighs the heap it tracks, and the
// line says so in words, not as the ratio 1/0 it once printed.
// EXPECT: ukasan: kasan statistics of pid
// EXPECT-RE: ^heap live: +1 objects, 1 kB$
// EXPECT-RE: ^KasanShadow \(resident\): \d+ kB \(more than the 1 kB tracked: shadow comes in whole pages and also covers stacks and globals\)$
// NOT: of tracked memory
// NOT: BUG: KASAN
#include <stdlib.h>

static char *volatile keep;

int main(void)
{
	keep = malloc(100);
	keep[99] = 1;
	return 0;
}
