/* Seed 003's loopback test in user space: a sender and a receiver thread
 * over one TCP connection on 127.0.0.1, moving TOTAL bytes in 32 KiB
 * messages.
 *
 *   loopback [--bytes TOTAL]     (default 2 GB = 2000000000, rounded down
 *                                 to whole messages)
 *
 * Every message lives in a fresh 32 KiB allocation on both sides, as the
 * kernel's network stack takes a fresh order-3 page_alloc block per frame:
 * that allocation is what kasan.page_alloc.sample samples. The sender fills
 * a few bytes, sends it all and frees it; the receiver reads exactly one
 * message into its own buffer, checks the bytes and frees it.
 *
 * Prints "bytes N" and "throughput X MB/s" (wall time, 1 MB = 10^6 bytes). */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define MSG (32 * 1024)

static long long messages;
static volatile unsigned long sink;

static void die(const char *what)
{
	perror(what);
	exit(1);
}

/* Bytes that differ per message, so that a lost or reordered message shows. */
static unsigned char mark(long long i, int k)
{
	return (unsigned char)(i * 31 + k * 7 + 1);
}

static void *sender(void *arg)
{
	int fd = *(int *)arg;
	for (long long i = 0; i < messages; i++) {
		unsigned char *buf = malloc(MSG);
		if (!buf)
			die("malloc");
		buf[0] = mark(i, 0);
		buf[MSG / 2] = mark(i, 1);
		buf[MSG - 1] = mark(i, 2);
		for (size_t done = 0; done < MSG;) {
			ssize_t n = send(fd, buf + done, MSG - done, 0);
			if (n < 0) {
				if (errno == EINTR)
					continue;
				die("send");
			}
			done += (size_t)n;
		}
		free(buf);
	}
	if (shutdown(fd, SHUT_WR))
		die("shutdown");
	return NULL;
}

static int receive(int fd)
{
	for (long long i = 0; i < messages; i++) {
		unsigned char *buf = malloc(MSG);
		if (!buf)
			die("malloc");
		for (size_t done = 0; done < MSG;) {
			ssize_t n = recv(fd, buf + done, MSG - done, 0);
			if (n < 0) {
				if (errno == EINTR)
					continue;
				die("recv");
			}
			if (n == 0) {
				fprintf(stderr, "loopback: connection closed after %lld messages\n",
				        i);
				return 1;
			}
			done += (size_t)n;
		}
		if (buf[0] != mark(i, 0) || buf[MSG / 2] != mark(i, 1) ||
		    buf[MSG - 1] != mark(i, 2)) {
			fprintf(stderr, "loopback: message %lld arrived wrong\n", i);
			return 1;
		}
		sink += buf[0];
		free(buf);
	}
	return 0;
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	long long total = 2000000000LL;
	if (argc == 3 && !strcmp(argv[1], "--bytes"))
		total = atoll(argv[2]);
	else if (argc != 1) {
		fprintf(stderr, "usage: loopback [--bytes TOTAL]\n");
		return 2;
	}
	messages = total / MSG;
	if (messages < 1) {
		fprintf(stderr, "loopback: TOTAL must be at least %d\n", MSG);
		return 2;
	}

	int lfd = socket(AF_INET, SOCK_STREAM, 0);
	if (lfd < 0)
		die("socket");
	struct sockaddr_in addr = {.sin_family = AF_INET,
	                           .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
	socklen_t len = sizeof(addr);
	if (bind(lfd, (struct sockaddr *)&addr, sizeof(addr)) || listen(lfd, 1) ||
	    getsockname(lfd, (struct sockaddr *)&addr, &len))
		die("bind/listen");
	int cfd = socket(AF_INET, SOCK_STREAM, 0);
	if (cfd < 0)
		die("socket");
	if (connect(cfd, (struct sockaddr *)&addr, sizeof(addr)))
		die("connect");
	int sfd = accept(lfd, NULL, NULL);
	if (sfd < 0)
		die("accept");
	close(lfd);

	double t0 = now();
	pthread_t tid;
	if (pthread_create(&tid, NULL, sender, &cfd)) {
		fprintf(stderr, "loopback: pthread_create failed\n");
		return 1;
	}
	/* On a bad message, returning ends the sender too. */
	if (receive(sfd))
		return 1;
	pthread_join(tid, NULL);
	double secs = now() - t0;
	close(cfd);
	close(sfd);
	long long bytes = messages * MSG;
	printf("bytes %lld\n", bytes);
	printf("throughput %.1f MB/s\n", (double)bytes / secs / 1e6);
	return 0;
}
