// MODE: generic
// A program's own __sanitizer_report_error_summary gets each report's
// summary line once the report is printed, as from ASan (its
// report_error_summary test); without one, no SUMMARY line is printed.
// STATUS: 1
// EXPECT: BUG: KASAN: slab-out-of-bounds in report_error_summary+0x
// EXPECT: ==================================================================
// EXPECT: program's summary: SUMMARY: ukasan: KASAN: slab-out-of-bounds in report_error_summary+0x
// COUNT: 1 program's summary:
#include "kasan_test.h"

void __sanitizer_report_error_summary(const char *summary)
{
	fprintf(stderr, "program's summary: %s\n", summary);
}

KASAN_TEST void report_error_summary(void)
{
	char *a = malloc(16);

	OPTIMIZER_HIDE_VAR(a);
	((volatile char *)a)[16] = 1;
	free(a);
}

int main(void)
{
	report_error_summary();
	return 0;
}
