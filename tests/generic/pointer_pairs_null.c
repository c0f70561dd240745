// MODE: generic
// CFLAGS: -fsanitize=pointer-compare,pointer-subtract
// RUN: kasan_multi_shot
// detect_invalid_pointer_pairs=2 as an ASan option (the program's
// __asan_default_options): a NULL pointer against one into a heap object
// is reported too, which level 1 lets pass (pointer_pairs_clean.c); two
// heap objects still are.
// EXPECT: BUG: KASAN: invalid-pointer-pair in pair_heap_cmp+0x
// EXPECT: BUG: KASAN: invalid-pointer-pair in pair_null+0x
// COUNT: 2 BUG: KASAN:
#include "_pointer_pairs.h"

const char *__asan_default_options(void)
{
	return "detect_invalid_pointer_pairs=2";
}

KASAN_TEST void pair_null(char *a, char *b)
{
	expect_pair("pair_null", a, b);
	pair_result = a < b;
}

int main(void)
{
	expecting = 1;
	char *a = malloc(16), *b = malloc(16), *null = NULL;
	OPTIMIZER_HIDE_VAR(a);
	OPTIMIZER_HIDE_VAR(b);
	OPTIMIZER_HIDE_VAR(null);
	pair_heap_cmp(a, b);
	pair_null(null, a);
	free(a);
	free(b);
	return 0;
}
