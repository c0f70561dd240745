/* A recursion with no end, in the main thread or (argument "thread") in a
 * thread of its own: the stack runs into its guard. Shared by the stack
 * overflow tests of both modes. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

__attribute__((noinline)) static int recurse(volatile char *prev, int depth)
{
	volatile char frame[256];
	frame[0] = (char)depth;
	frame[255] = prev ? prev[0] : 0;
	/* Not a tail call: the frame stays while the next one is made. */
	return recurse(frame, depth + 1) + frame[255];
}

static void *thread_main(void *arg)
{
	(void)arg;
	return (void *)(long)recurse(NULL, 0);
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "thread")) {
		pthread_t t;
		void *r;
		pthread_create(&t, NULL, thread_main, NULL);
		pthread_join(t, &r);
		return (int)(long)r;
	}
	return recurse(NULL, 0);
}
