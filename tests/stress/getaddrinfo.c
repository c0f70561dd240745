// RUN: kfence.sample_rate=1
// RUN-ALSO: kfence.sample_interval=1 kfence.burst=32
// REPEAT: 20
// STDOUT: getaddrinfo: 6 threads, every answer right
// NOT: BUG: KFENCE
// NOT: ukasan:
#include "_stress.h"

#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <pthread.h>
#include <sys/socket.h>

/* pthread_getattr_np (itself, the main thread, its neighbours) and name
 * lookups, in many threads at once, from each thread's first allocation
 * on. glibc allocates in both while it holds a lock of its own: the
 * asked-about thread's, the NSS and /etc/hosts machinery's. Lookups are
 * local only: numeric, or "localhost" from /etc/hosts. */
#define THREADS 6
#define ROUNDS  60

static pthread_t ids[THREADS + 1];
static void *locals[THREADS + 1];
static pthread_barrier_t ready, done;

/* The first IPv4 answer for host:port must be 127.0.0.1:port. */
static void lookup(const char *host, int flags, int family)
{
	struct addrinfo hints, *res = NULL;
	memset(&hints, 0, sizeof(hints));
	hints.ai_family = family;
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = flags | AI_NUMERICSERV;
	CHECK(getaddrinfo(host, "8080", &hints, &res) == 0 && res);
	int found = 0;
	for (struct addrinfo *a = res; a; a = a->ai_next) {
		if (a->ai_family != AF_INET)
			continue;
		struct sockaddr_in *in = (struct sockaddr_in *)a->ai_addr;
		CHECK(ntohs(in->sin_port) == 8080);
		char text[INET_ADDRSTRLEN], serv[16];
		CHECK(inet_ntop(AF_INET, &in->sin_addr, text, sizeof(text)));
		CHECK(strcmp(text, "127.0.0.1") == 0);
		CHECK(getnameinfo(a->ai_addr, a->ai_addrlen, text, sizeof(text), serv,
		                  sizeof(serv), NI_NUMERICHOST | NI_NUMERICSERV) == 0);
		CHECK(strcmp(text, "127.0.0.1") == 0 && strcmp(serv, "8080") == 0);
		found = 1;
	}
	CHECK(found);
	freeaddrinfo(res);
}

static void *worker(void *arg)
{
	long id = (long)arg;
	int local = 0;
	unsigned seed = (unsigned)id * 2654435761u | 1;
	locals[id] = &local;
	/* First call before any allocation of this thread. */
	CHECK(stack_holds(pthread_self(), &local));
	pthread_barrier_wait(&ready);
	for (int r = 0; r < ROUNDS; r++) {
		long peer = 1 + (id + r) % THREADS;
		CHECK(stack_holds(ids[peer], locals[peer]));
		CHECK(stack_holds(ids[0], locals[0]));
		switch (r % 3) {
		case 0:
			lookup("127.0.0.1", AI_NUMERICHOST, AF_INET);
			break;
		case 1:
			lookup("localhost", 0, AF_INET);
			break;
		case 2:
			lookup("127.0.0.1", 0, AF_UNSPEC);
			break;
		}
		struct hostent he, *res = NULL;
		char buf[2048];
		int err = 0;
		CHECK(gethostbyname_r("localhost", &he, buf, sizeof(buf), &res, &err) == 0 && res);
		CHECK(he.h_length == 4 && he.h_addr_list[0][0] == 127);
		churn(&seed, 10);
	}
	pthread_barrier_wait(&done); /* every neighbour alive until here */
	return NULL;
}

int main(void)
{
	int local = 0;
	ids[0] = pthread_self();
	locals[0] = &local;
	pthread_barrier_init(&ready, NULL, THREADS + 1);
	pthread_barrier_init(&done, NULL, THREADS + 1);
	for (long i = 1; i <= THREADS; i++)
		CHECK(pthread_create(&ids[i], NULL, worker, (void *)i) == 0);
	pthread_barrier_wait(&ready);
	for (int r = 0; r < ROUNDS; r++) {
		CHECK(stack_holds(ids[0], &local));
		lookup("localhost", 0, AF_UNSPEC);
	}
	pthread_barrier_wait(&done);
	for (int i = 1; i <= THREADS; i++)
		CHECK(pthread_join(ids[i], NULL) == 0);
	printf("getaddrinfo: %d threads, every answer right\n", THREADS);
	return 0;
}
