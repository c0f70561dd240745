/* ASAN_OPTIONS for a test. The runner sets only UKASAN_OPTIONS, and the
 * runtime reads its options once, at start: so the program runs itself again
 * with ASAN_OPTIONS set. exec keeps the pid and the runner's stdout and
 * stderr, which the directives check. */
#ifndef ASAN_OPTIONS_TEST_H
#define ASAN_OPTIONS_TEST_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define ASAN_OPTIONS_AGAIN "asan-options-set"

/* Returns only in the second run. */
static inline void with_asan_options(char **argv, const char *opts)
{
	if (argv[1] && !strcmp(argv[1], ASAN_OPTIONS_AGAIN))
		return;
	setenv("ASAN_OPTIONS", opts, 1);
	fflush(stdout);
	execl("/proc/self/exe", argv[0], ASAN_OPTIONS_AGAIN, (char *)NULL);
	perror("exec");
	exit(92);
}

#endif
