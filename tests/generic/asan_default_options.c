// MODE: generic
// A program's compiled-in __asan_default_options is read as ASan reads it,
// before ASAN_OPTIONS and UKASAN_OPTIONS: here exitcode=9 and
// print_summary=0.
// STATUS: 9
// EXPECT: BUG: KASAN: slab-out-of-bounds in asan_default_options_bug+0x
// NOT: report in this run
#include "kasan_test.h"

const char *__asan_default_options(void)
{
	return "exitcode=9:print_summary=0";
}

KASAN_TEST void asan_default_options_bug(void)
{
	char *a = malloc(16);

	OPTIMIZER_HIDE_VAR(a);
	kasan_int_result = ((volatile char *)a)[16];
	free(a);
}

int main(void)
{
	asan_default_options_bug();
	return 0;
}
