// preload_bss_end.c's program at the preload's defaults, KFENCE guarding
// every allocation: there the program's memory is all roots, the part of
// a mapping the kernel merged after a module's .bss too (it holds the
// program's own pointers; the sampled check reported the object only a
// pointer there kept: tcmalloc's MallocExtension::Register list, its
// memory mapped right after a library's .bss). Only the object lost on
// purpose here is reported, which shows the check ran.
// RUN: kfence.sample_rate=1
// CFLAGS: -O1 -Dmain=bss_end_main
// STATUS: 0
// EXPECT-RE: unreferenced object 0x[0-9a-f]{16} \(size 24\):(\n.*){5,16}\n    \[<[0-9a-f]+>\] lose_one_more\+0x
// COUNT: 1 unreferenced object 0x
#include "preload_bss_end.c"

#undef main

LEAK_TEST void lose_one_more(void)
{
	char *p = malloc(24);
	memset(p, 3, 24);
	HIDE(p);
}

int main(void)
{
	bss_end_main();
	run_deep(lose_one_more);
	clear_stack();
	return 0;
}
