// MODE: generic
// RUN: kasan_multi_shot
// strict_string_checks_scans.c without the option: each call is checked
// only as far as it read, which stays inside the object: no report.
// STATUS: 0
// NOT: BUG: KASAN
// STDOUT: 2 found found less
// STDOUT: token ,,
#include "_strict_scans.h"

int main(void)
{
	return strict_scans_run();
}
