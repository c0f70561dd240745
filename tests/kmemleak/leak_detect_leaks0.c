// MODE: generic
// TAG-MODES: sw_tags
// ASan's detect_leaks=0 (here from the program's __asan_default_options,
// read as ASAN_OPTIONS is): a lost object is not reported. Not with
// hardware tags, whose runs check leaks only when kmemleak=on asks.
// STATUS: 0
// NOT: memory leak
#include <stdlib.h>

#include "leak_test.h"

const char *__asan_default_options(void)
{
	return "detect_leaks=0";
}

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
