// MODE: generic
// The twin of strict_string_checks.c, without the option (ASan's default):
// the same calls on the unterminated "12ab" are checked only as far as they
// read, inside the object, and nothing is reported.
// NOT: BUG:
// STDOUT: 12 12 found
#include "_strict_strings.h"

int main(void)
{
	return strict_strings_run(0);
}
