// MODE: generic
// RUN: kasan.strict_string_checks=on kasan_multi_shot
// ASan's strict_string_checks for the scans: strspn, strcspn and strpbrk's
// string, strcasestr's haystack and both strings of strncasecmp are checked
// to their terminator (up to n), not only as far as the call read them
// (ASan's strcspn-1, strpbrk-1, strspn-1, strcasestr_strict and
// strncasecmp_strict tests); strtok's string whole on its first call. The
// unterminated "12ab" is reported by each of the five; the terminated
// string given to strtok is not. strict_string_checks_scans_off.c: the
// twin without the option.
// EXPECT: BUG: KASAN: slab-out-of-bounds in strict_strspn+0x
// EXPECT: BUG: KASAN: slab-out-of-bounds in strict_strcspn+0x
// EXPECT: BUG: KASAN: slab-out-of-bounds in strict_strpbrk+0x
// EXPECT: BUG: KASAN: slab-out-of-bounds in strict_strcasestr+0x
// EXPECT: BUG: KASAN: slab-out-of-bounds in strict_strncasecmp+0x
// COUNT: 5 BUG: KASAN:
// STDOUT: 2 found found less
// STDOUT: token ,,
#include "_strict_scans.h"

int main(void)
{
	return strict_scans_run();
}
