// MODE: generic
// RUN: kasan.strict_string_checks=on kasan_multi_shot
// ASan's strict_string_checks: a string argument is checked to its
// terminator, not only as far as the call read it. An unterminated
// "12ab" in a 4-byte object: strtol and atoi stop at 'a', strchr finds
// '2', strcmp differs at the first byte; each is reported as a read of the
// whole string, past the object, from its start (the size counted to the
// terminator the redzone happens to hold, here computed the same way).
// strict_string_checks_off.c is the twin without the option.
// EXPECT: BUG: KASAN: slab-out-of-bounds in strict_strtol+0x
// EXPECT: BUG: KASAN: slab-out-of-bounds in strict_atoi+0x
// EXPECT: BUG: KASAN: slab-out-of-bounds in strict_strchr+0x
// EXPECT: BUG: KASAN: slab-out-of-bounds in strict_strcmp+0x
// EXPECT: which belongs to the cache malloc of size 4
// COUNT: 4 BUG: KASAN:
// STDOUT: 12 12 found
#include "_strict_strings.h"

int main(void)
{
	return strict_strings_run(1);
}
