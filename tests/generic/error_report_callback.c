// MODE: generic
// __asan_set_error_report_callback's function gets each report's whole
// text once it is printed; the program's __asan_on_error runs as each
// report starts. Statistics (kasan.stats) are not reports.
// RUN: kasan.stats=1
// STATUS: 1
// EXPECT: BUG: KASAN: slab-out-of-bounds in error_report_callback+0x
// EXPECT: on_error calls: 1
// EXPECT: callback calls: 1
// EXPECT: callback text has the title, the access and the end: yes
// EXPECT: ukasan: 1 report in this run
#include "kasan_test.h"

#include <sanitizer/asan_interface.h>

static int calls, on_errors, good;

void __asan_on_error(void)
{
	on_errors++;
}

static void on_report(const char *text)
{
	calls++;
	good = strstr(text, "BUG: KASAN: slab-out-of-bounds in error_report_callback") &&
	       strstr(text, "Write of size 1 at addr") &&
	       strstr(text, "==================================================================\n");
}

KASAN_TEST void error_report_callback(void)
{
	char *a = malloc(16);

	OPTIMIZER_HIDE_VAR(a);
	((volatile char *)a)[16] = 1;
	free(a);
}

int main(void)
{
	__asan_set_error_report_callback(on_report);
	error_report_callback();
	fprintf(stderr, "on_error calls: %d\n", on_errors);
	fprintf(stderr, "callback calls: %d\n", calls);
	fprintf(stderr, "callback text has the title, the access and the end: %s\n", good ? "yes" : "no");
	return 0;
}
