// MODE: generic
// RUN: kasan.strict_string_checks=on
// strtol_bad_base.c with ASan's strict_string_checks: even a refused base
// checks the string to its terminator (as ASan's strtol_strict test), so
// an unterminated one is reported.
// EXPECT: BUG: KASAN: slab-out-of-bounds in main+0x
// EXPECT-RE: Read of size \d+ at addr
// COUNT: 1 BUG: KASAN:
#include <stdlib.h>
#include <string.h>

int main(void)
{
	char *buf = malloc(4);
	memcpy(buf, "1234", 4); /* no terminator */
	long v = strtol(buf, NULL, 1);
	free(buf);
	return (int)v;
}
