// MODE: generic
// RUN: kasan_multi_shot
// A bad access in a signal handler that runs while a report is printed on
// the same thread (raised here from the program's report callback): that
// report cannot go inside the other; it is counted and named in the
// summary line, not dropped without a word.
// STATUS: 1
// COUNT: 1 BUG: KASAN:
// EXPECT: BUG: KASAN: slab-out-of-bounds in report_nested_counted+0x
// EXPECT: SIGUSR1's handler ran inside the report
// EXPECT: ukasan: 1 report in this run (pid
// EXPECT: ; 1 more not reported (made while another report was in progress on the same thread)
#include "kasan_test.h"

#include <signal.h>
#include <sanitizer/asan_interface.h>

static char *volatile other;
static volatile int usr1_ran;

static void on_usr1(int sig)
{
	(void)sig;
	char *b = other;
	OPTIMIZER_HIDE_VAR(b);
	((volatile char *)b)[16] = 2;
	usr1_ran = 1;
}

/* Called with the report's text, before the report ends. */
static void on_report(const char *text)
{
	(void)text;
	raise(SIGUSR1);
}

KASAN_TEST void report_nested_counted(void)
{
	char *a = malloc(16);

	OPTIMIZER_HIDE_VAR(a);
	((volatile char *)a)[16] = 1;
	free(a);
}

int main(void)
{
	signal(SIGUSR1, on_usr1);
	__asan_set_error_report_callback(on_report);
	other = malloc(16);
	report_nested_counted();
	if (usr1_ran)
		fprintf(stderr, "SIGUSR1's handler ran inside the report\n");
	free(other);
	return 0;
}
