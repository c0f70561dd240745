// MODE: generic
// RUN: kasan_multi_shot
// After a report on a string it prints, a call of the printf family or of
// stdio's string writers goes on and prints it, as ASan's recovery does:
// the program's output does not silently disappear (it once failed with
// EFAULT). The string is nine bytes, its terminator one past its 8-byte
// heap object; each call reports the read of all nine, then prints them.
// EXPECT: BUG: KASAN: slab-out-of-bounds in printf_recover+0x
// EXPECT: Read of size 9 at addr
// COUNT: 5 BUG: KASAN: slab-out-of-bounds in printf_recover+0x
// COUNT: 5 BUG: KASAN:
// STDOUT: printf [abcdefgh]
// STDOUT: fprintf [abcdefgh]
// STDOUT: snprintf [abcdefgh]
// STDOUT: puts: abcdefgh
// STDOUT: fputs> abcdefgh
#include "kasan_test.h"

#include <stdio.h>

/* The terminator goes one past the object, unchecked: what the calls must
 * be caught reading. */
static __attribute__((noinline, no_sanitize("kernel-address"))) void overlong(char *s)
{
	volatile char *v = s;
	for (int i = 0; i < 8; i++)
		v[i] = (char)('a' + i);
	v[8] = 0;
}

KASAN_TEST void printf_recover(void)
{
	char *s = malloc(8);
	char line[64];

	OPTIMIZER_HIDE_VAR(s);
	overlong(s);
	printf("printf [%s]\n", s);
	fprintf(stdout, "fprintf [%s]\n", s);
	snprintf(line, sizeof(line), "snprintf [%s]", s);
	fputs(line, stdout);
	fputs("\n", stdout);
	fputs("puts: ", stdout);
	puts(s);
	fputs("fputs> ", stdout);
	fputs(s, stdout);
	fputs("\n", stdout);
	fflush(stdout);
	free(s);
}

int main(void)
{
	printf_recover();
	return 0;
}
