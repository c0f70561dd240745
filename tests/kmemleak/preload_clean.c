// A plain gcc program that frees or keeps everything, under the preload
// with kmemleak=on: no report, exit status 0 (stdio, threads, realloc and
// a kept list are no leaks).
// RUN: kmemleak=on
// CFLAGS: -O1 -pthread
// NOT: memory leak
// NOT: unreferenced object
// STDOUT: done
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

struct node {
	struct node *next;
	char pad[40];
};
struct node *list;

static void *worker(void *arg)
{
	(void)arg;
	for (int i = 0; i < 1000; i++)
		free(realloc(malloc(i), 2 * i + 1));
	return NULL;
}

int main(void)
{
	for (int i = 0; i < 100; i++) {
		struct node *n = calloc(1, sizeof(*n));
		n->next = list;
		list = n;
	}
	pthread_t t[4];
	for (int i = 0; i < 4; i++)
		pthread_create(&t[i], NULL, worker, NULL);
	for (int i = 0; i < 4; i++)
		pthread_join(t[i], NULL);
	printf("done\n");
	return 0;
}
