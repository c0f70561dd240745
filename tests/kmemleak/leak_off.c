// MODE: generic
// TAG-MODES: sw_tags hw_tags
// RUN: kmemleak=off
// kmemleak=off: a lost object is not reported.
// STATUS: 0
// NOT: memory leak
#include <stdlib.h>

#include "leak_test.h"

LEAK_TEST void lose(void)
{
	void *p = malloc(40);
	HIDE(p);
}

int main(void)
{
	lose();
	clear_stack();
	return 0;
}
