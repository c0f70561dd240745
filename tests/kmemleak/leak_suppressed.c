// MODE: generic
// TAG-MODES: sw_tags hw_tags
// LSan's suppressions: the program's __lsan_default_suppressions names a
// function of the stack (with a wildcard), and that leak is not reported;
// another one is. Exported, for the hardware tag run, whose runtime is
// preloaded into a plain build.
// CFLAGS: -rdynamic
// STATUS: 1
// EXPECT-RE: \(size 24\):(\n.*){5,7}\n    \[<[0-9a-f]+>\] lose_loudly\+0x
// EXPECT: ukasan: kmemleak: 1 new suspected memory leak (24 bytes)
// EXPECT: ukasan: kmemleak: 1 unreferenced object suppressed
// NOT: lose_quietly
// COUNT: 1 BUG: memory leak
#include <stdlib.h>

#include "leak_test.h"

const char *__lsan_default_suppressions(void)
{
	return "# a comment\nleak:lose_qui*ly\n";
}

LEAK_TEST void lose_quietly(void)
{
	void *p = malloc(40);
	HIDE(p);
}

LEAK_TEST void lose_loudly(void)
{
	void *p = malloc(24);
	HIDE(p);
}

int main(void)
{
	run_deep(lose_quietly);
	run_deep(lose_loudly);
	clear_stack();
	return 0;
}
