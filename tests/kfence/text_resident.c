// ARCH: x86_64 -- under qemu-user the emulator reads the guest's code
// STDOUT: text_resident: libukasan.so's code resident in a preloaded program: within 128 KB
/* The preload's code in every process: the kernel maps a file's pages 64 KB
 * around each fault, so code run at start, at each allocation and free, in
 * sampling and in the check at exit must sit together (src/hot_text.ld,
 * tools/hot_text.py), or nearly all of libukasan.so's code becomes every
 * process's resident memory (272-284 KB of 284 before). Threads, C and
 * aligned allocation, realloc, fork and exit run here; a function added to
 * those paths and not to hot_text.ld puts another window in and fails
 * this. */
#define _GNU_SOURCE
#include <pthread.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "_alloc_test.h"

#define LIMIT_KB 128

static void *churn(void *arg)
{
	void *keep[64] = {0};
	for (int i = 0; i < 40000; i++) {
		int k = i % 64;
		free(keep[k]);
		keep[k] = i % 7 ? malloc(1 + i % 300) : calloc(1, 1 + i % 5000);
		if (i % 11 == 0)
			keep[k] = realloc(keep[k], 1 + i % 900);
		if (i % 13 == 0) {
			free(keep[k]);
			keep[k] = aligned_alloc(64, 128);
		}
	}
	for (int k = 0; k < 64; k++)
		free(keep[k]);
	return arg;
}

/* Rss of libukasan.so's executable mapping, in KB; -1 if not found. */
static long text_rss_kb(void)
{
	FILE *f = fopen("/proc/self/smaps", "r");
	char line[512];
	int in_text = 0;
	long kb = -1;
	while (f && fgets(line, sizeof(line), f)) {
		unsigned long lo, hi;
		char perm[8];
		if (sscanf(line, "%lx-%lx %7s", &lo, &hi, perm) == 3)
			in_text = strstr(line, "/libukasan.so") && perm[2] == 'x';
		else if (in_text && !strncmp(line, "Rss:", 4))
			kb = atol(line + 4);
	}
	if (f)
		fclose(f);
	return kb;
}

int main(void)
{
	pthread_t t[2];
	for (int i = 0; i < 2; i++)
		CHECK(pthread_create(&t[i], NULL, churn, NULL) == 0);
	churn(NULL);
	for (int i = 0; i < 2; i++)
		CHECK(pthread_join(t[i], NULL) == 0);
	pid_t p = fork();
	CHECK(p >= 0);
	if (p == 0)
		_exit(churn(NULL) != NULL);
	int st;
	CHECK(waitpid(p, &st, 0) == p && st == 0);
	long kb = text_rss_kb();
	CHECK(kb >= 0);
	if (kb > LIMIT_KB)
		printf("text_resident: libukasan.so's code resident: %ld KB, over %d KB\n", kb,
		       LIMIT_KB);
	else
		printf("text_resident: libukasan.so's code resident in a preloaded program: within "
		       "%d KB\n",
		       LIMIT_KB);
	return 0;
}
