// MODE: generic
// RUN: kasan_multi_shot
// strict_string_checks=1 as an ASan option (here the program's own
// __asan_default_options, read as ASAN_OPTIONS is) turns the strict checks
// on as kasan.strict_string_checks does: strict_string_checks.c's reports.
// EXPECT: BUG: KASAN: slab-out-of-bounds in strict_strtol+0x
// EXPECT: BUG: KASAN: slab-out-of-bounds in strict_atoi+0x
// EXPECT: BUG: KASAN: slab-out-of-bounds in strict_strchr+0x
// EXPECT: BUG: KASAN: slab-out-of-bounds in strict_strcmp+0x
// COUNT: 4 BUG: KASAN:
// STDOUT: 12 12 found
#include "_strict_strings.h"

const char *__asan_default_options(void)
{
	return "strict_string_checks=1";
}

int main(void)
{
	return strict_strings_run(1);
}
