// MODE: generic
// TAG-MODES: sw_tags hw_tags
// __lsan_do_recoverable_leak_check reports and returns 1, and the program
// goes on; the object is not reported again at exit, and the run fails.
// ukasan_leak_check() then finds it still there.
// STATUS: 1
// EXPECT: BUG: memory leak
// EXPECT-RE: \(size 64\):
// EXPECT-RE: ^    \[<[0-9a-f]+>\] lose\+0x
// STDOUT: recoverable check: 1, again: 1
// STDOUT: going on
// COUNT: 1 BUG: memory leak
#include <stdio.h>
#include <stdlib.h>
#include <ukasan.h>

#include "leak_test.h"

LSAN_API int __lsan_do_recoverable_leak_check(void);

LEAK_TEST void lose(void)
{
	void *p = malloc(64);
	HIDE(p);
}

int main(void)
{
	run_deep(lose);
	clear_stack();
	int r = __lsan_do_recoverable_leak_check();
	int again = ukasan_leak_check();
	printf("recoverable check: %d, again: %d\n", r, again);
	printf("going on\n");
	return 0;
}
