// RUN: kfence.sample_rate=1
// A KFENCE fault in a signal handler that runs while ukasan prints a report
// on the same thread (here raised from the program's report callback):
// that report cannot be printed inside the other, so it is counted and
// named in the summary line; the program runs on (the kernel killed it,
// silently, while ukasan's handler kept SIGSEGV blocked).
// COUNT: 1 BUG: KFENCE:
// EXPECT: BUG: KFENCE: use-after-free read in read_after_free+0x
// EXPECT: ukasan: 1 report in this run (pid
// EXPECT: ; 1 more not reported (made while another report was in progress on the same thread)
// STDOUT: SIGUSR1's handler ran inside the report
// STDOUT: 1 report counted
#include <signal.h>
#include <string.h>

#include "kfence_test.h"

extern void __asan_set_error_report_callback(void (*cb)(const char *)) __attribute__((weak));

static char *volatile other;
static volatile int usr1_ran;

__attribute__((noinline)) static char read_past(const char *p, size_t n)
{
	return *(volatile const char *)(p + n);
}

static void on_usr1(int sig)
{
	(void)sig;
	read_past(other, 32);
	usr1_ran = 1;
}

/* Called with the report's text, before the report ends. */
static void on_report(const char *text)
{
	(void)text;
	raise(SIGUSR1);
}

int main(void)
{
	if (!__asan_set_error_report_callback)
		return 90;
	signal(SIGUSR1, on_usr1);
	__asan_set_error_report_callback(on_report);
	other = test_alloc(32, RIGHT);
	report_use_after_free();
	if (usr1_ran)
		printf("SIGUSR1's handler ran inside the report\n");
	printf("%lu report counted\n", ukasan_report_count());
	free(other);
	return 0;
}
