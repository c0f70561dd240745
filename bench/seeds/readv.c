/* Shaped like seed 001's bench_readv (google/sanitizers kernel_buildbot):
 * many preadv(2) calls, each scattering the start of a file one byte at a
 * time over many small buffers.
 *
 *   readv FILE ITERS [THREADS]      (seed 001 ran: bench_readv bench_readv 300000 1)
 *
 * Each thread opens FILE and builds up to 1024 one-byte iovecs (fewer if
 * the file is shorter), pointing in a scattered order into a buffer on its
 * stack and, alternately, into one on the heap, so that both kinds of
 * memory are handed to the kernel. ITERS times it reads the file from
 * offset 0 into them. Almost all the time is the system call; what a
 * sanitizer adds is its check of the iovec array and of every buffer.
 *
 * Prints "bytes N", the bytes read by all threads, and "sum S", a checksum
 * of what the last read left in the buffers. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#define MAXV 1024

static const char *path;
static long iters;

struct result {
	long long bytes;
	unsigned long sum;
};

static void die(const char *what)
{
	perror(what);
	exit(1);
}

static void *bench(void *arg)
{
	struct result *r = arg;
	char onstack[MAXV];
	char *onheap = malloc(MAXV);
	struct iovec *iov = malloc(MAXV * sizeof(*iov));
	if (!onheap || !iov)
		die("malloc");
	int fd = open(path, O_RDONLY);
	if (fd < 0)
		die(path);
	off_t len = lseek(fd, 0, SEEK_END);
	if (len < 0)
		die("lseek");
	int n = len > MAXV ? MAXV : (int)len;
	for (int i = 0; i < n; i++) {
		/* 31 is odd, so i * 31 mod 1024 visits every byte once, out of order. */
		char *base = i % 2 ? onheap : onstack;
		iov[i].iov_base = base + (i * 31 % MAXV);
		iov[i].iov_len = 1;
	}
	for (long k = 0; k < iters; k++) {
		ssize_t got = preadv(fd, iov, n, 0);
		if (got != n)
			die("preadv");
		r->bytes += got;
	}
	for (int i = 0; i < n; i++)
		r->sum = r->sum * 131 + *(unsigned char *)iov[i].iov_base;
	close(fd);
	free(iov);
	free(onheap);
	return NULL;
}

int main(int argc, char **argv)
{
	if (argc < 3 || argc > 4) {
		fprintf(stderr, "usage: readv FILE ITERS [THREADS]\n");
		return 2;
	}
	path = argv[1];
	iters = atol(argv[2]);
	int threads = argc == 4 ? atoi(argv[3]) : 1;
	if (iters < 1 || threads < 1) {
		fprintf(stderr, "usage: readv FILE ITERS [THREADS]\n");
		return 2;
	}
	pthread_t *tids = malloc((size_t)threads * sizeof(*tids));
	struct result *res = calloc((size_t)threads, sizeof(*res));
	if (!tids || !res)
		die("malloc");
	for (int i = 0; i < threads; i++)
		if (pthread_create(&tids[i], NULL, bench, &res[i])) {
			fprintf(stderr, "readv: pthread_create failed\n");
			return 1;
		}
	long long bytes = 0;
	unsigned long sum = 0;
	for (int i = 0; i < threads; i++) {
		pthread_join(tids[i], NULL);
		bytes += res[i].bytes;
		sum ^= res[i].sum;
	}
	printf("bytes %lld\nsum %lu\n", bytes, sum);
	free(res);
	free(tids);
	return 0;
}
