// MODE: generic
// VARIANTS: gcc clang gcc-fortify clang-fortify
// The clean twin of param_overlap.c: copies that touch but do not overlap,
// a memcpy onto itself (what compilers make of a struct assigned to
// itself, left alone as ASan leaves it), strncpy and strncat cut short of
// the overlap by their count, and an empty string appended from inside the
// destination: no report.
// NOT: BUG:
// NOT: ukasan:
// STDOUT: aaaaaaaaaaaaaaa
// STDOUT: done
#include "kasan_test.h"

static volatile size_t eight = 8, zero = 0, two = 2;

int main(void)
{
	char *b = malloc(32);
	memset(b, 'a', 31);
	b[31] = 0;
	OPTIMIZER_HIDE_VAR(b);
	memcpy(b + 8, b, eight);	/* [b+8, b+16) after [b, b+8) */
	memcpy(b, b + 8, eight);
	memcpy(b, b, eight);
	memcpy(b + 1, b, zero);
	b[7] = 0;
	kasan_ptr_result = strcpy(b + 8, b); /* 8 bytes, touching */
	kasan_ptr_result = strncpy(b + 2, b, two); /* [b+2, b+4) after [b, b+2) */
	b[3] = 0;
	kasan_ptr_result = strncat(b, b + 20, zero);
	b[20] = 0;
	kasan_ptr_result = strcat(b + 22, b + 20); /* "" appended */
	memset(b, 'a', 31);
	b[15] = 0;
	printf("%s\n", b);
	free(b);
	printf("done\n");
	return 0;
}
