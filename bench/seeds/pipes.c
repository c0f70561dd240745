/* Shaped like seed 001's bench_pipes (google/sanitizers kernel_buildbot):
 * pipes created and closed over and over, here with a small message passed
 * through them in a ring on every round.
 *
 *   pipes NPIPES ITERS [THREADS]    (seed 001 ran: bench_pipes 10 10000 1)
 *
 * Each thread, ITERS times: opens NPIPES pipes; writes a 16-byte message,
 * built in a fresh heap buffer, into the first; then for every pipe reads
 * the message into a fresh heap buffer, bumps a counter in it and writes
 * it into the next pipe (the last one back into the first); reads it out
 * of the first, checks it, and closes every pipe. So each round allocates
 * kernel pipes and files (what the kernel's KASAN paid for) and makes small
 * reads, writes and allocations in user space (what a user-space sanitizer
 * pays for).
 *
 * Prints "messages N", the reads done by all threads, and "sum S". */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MSG 16

static int npipes;
static long iters;

struct result {
	long long messages;
	unsigned long sum;
};

static void die(const char *what)
{
	perror(what);
	exit(1);
}

static void put(int fd, const unsigned char *msg)
{
	if (write(fd, msg, MSG) != MSG)
		die("write");
}

static unsigned char *take(int fd)
{
	unsigned char *msg = malloc(MSG);
	if (!msg)
		die("malloc");
	if (read(fd, msg, MSG) != MSG)
		die("read");
	return msg;
}

static void *bench(void *arg)
{
	struct result *r = arg;
	int *fds = malloc((size_t)npipes * 2 * sizeof(*fds));
	if (!fds)
		die("malloc");
	for (long k = 0; k < iters; k++) {
		for (int i = 0; i < npipes; i++)
			if (pipe(fds + 2 * i))
				die("pipe");
		unsigned char *msg = calloc(1, MSG);
		if (!msg)
			die("calloc");
		memcpy(msg + 8, &k, sizeof(k));
		put(fds[1], msg);
		free(msg);
		for (int i = 0; i < npipes; i++) {
			msg = take(fds[2 * i]);
			msg[0]++;
			put(fds[2 * ((i + 1) % npipes) + 1], msg);
			free(msg);
			r->messages++;
		}
		msg = take(fds[0]);
		r->messages++;
		if (msg[0] != (unsigned char)npipes || memcmp(msg + 8, &k, sizeof(k))) {
			fprintf(stderr, "pipes: round %ld: the message came back wrong\n", k);
			exit(1);
		}
		r->sum += msg[0] + (unsigned long)k;
		free(msg);
		for (int i = 0; i < 2 * npipes; i++)
			close(fds[i]);
	}
	free(fds);
	return NULL;
}

int main(int argc, char **argv)
{
	if (argc < 3 || argc > 4) {
		fprintf(stderr, "usage: pipes NPIPES ITERS [THREADS]\n");
		return 2;
	}
	npipes = atoi(argv[1]);
	iters = atol(argv[2]);
	int threads = argc == 4 ? atoi(argv[3]) : 1;
	if (npipes < 1 || iters < 1 || threads < 1) {
		fprintf(stderr, "usage: pipes NPIPES ITERS [THREADS]\n");
		return 2;
	}
	pthread_t *tids = malloc((size_t)threads * sizeof(*tids));
	struct result *res = calloc((size_t)threads, sizeof(*res));
	if (!tids || !res)
		die("malloc");
	for (int i = 0; i < threads; i++)
		if (pthread_create(&tids[i], NULL, bench, &res[i])) {
			fprintf(stderr, "pipes: pthread_create failed\n");
			return 1;
		}
	long long messages = 0;
	unsigned long sum = 0;
	for (int i = 0; i < threads; i++) {
		pthread_join(tids[i], NULL);
		messages += res[i].messages;
		sum += res[i].sum;
	}
	printf("messages %lld\nsum %lu\n", messages, sum);
	free(res);
	free(tids);
	return 0;
}
