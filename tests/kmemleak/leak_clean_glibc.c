// MODE: generic
// TAG-MODES: sw_tags hw_tags
// glibc's lazily allocated state is no leak: locales read from files
// (setlocale, newlocale, strerror_l), the passwd and group databases
// (NSS modules loaded with dlopen), getaddrinfo, iconv's converters,
// localtime's time zone, dlopen, a thread-specific key with a destructor,
// atexit after main started, stdio streams and buffers, qsort's buffer,
// printf of floats, the environment. Checked on demand (twice) and at exit.
// A regcomp without regfree is a leak indeed: not here.
// RUN: kfence.sample_interval=0
// RUN-ALSO: kfence.sample_interval=1
// NOT: memory leak
// NOT: BUG:
// STDOUT: clean
#define _GNU_SOURCE
#include <dlfcn.h>
#include <grp.h>
#include <iconv.h>
#include <locale.h>
#include <netdb.h>
#include <pthread.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

__attribute__((weak)) int __lsan_do_recoverable_leak_check(void); /* weak: see leak_test.h */

static pthread_key_t key;

static void destroy(void *p)
{
	free(p);
}

static int cmp(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

static void at_end(void)
{
}

static void *keyed_thread(void *arg)
{
	pthread_setspecific(key, malloc(30)); /* freed by the destructor */
	return arg;
}

int main(void)
{
	setlocale(LC_ALL, "C.UTF-8");
	setlocale(LC_NUMERIC, "C");
	locale_t l = newlocale(LC_ALL_MASK, "C.UTF-8", 0);
	printf("%s\n", strerror_l(2, l));
	freelocale(l);
	printf("%s\n", strerror(3));
	if (!getpwnam("root") || !getgrnam("root"))
		printf("no root\n");
	struct addrinfo *res;
	if (getaddrinfo("localhost", "80", NULL, &res) == 0)
		freeaddrinfo(res);
	iconv_t cd = iconv_open("UTF-16", "UTF-8");
	if (cd != (iconv_t)-1)
		iconv_close(cd);
	time_t t = 1700000000;
	char buf[128];
	strftime(buf, sizeof(buf), "%c %Z", localtime(&t));
	printf("%s\n", buf);
	if (!dlopen("libm.so.6", RTLD_NOW))
		printf("no libm\n");
	pthread_key_create(&key, destroy);
	pthread_setspecific(key, malloc(20)); /* this thread's: held in its TLS */
	pthread_t th;
	pthread_create(&th, NULL, keyed_thread, NULL);
	pthread_join(th, NULL);
	atexit(at_end);
	FILE *f = fopen("/proc/self/status", "r");
	if (f) {
		if (!fgets(buf, sizeof(buf), f))
			buf[0] = 0;
		fclose(f);
	}
	int n = 100000, *a = malloc(n * sizeof(int));
	for (int i = 0; i < n; i++)
		a[i] = rand();
	qsort(a, n, sizeof(int), cmp);
	free(a);
	printf("%f %g %e %La\n", 3.14159, 1e300, 2.5e-300, (long double)1.5);
	setenv("UKASAN_TEST_VAR", "a value", 1);
	putenv("UKASAN_TEST_PUT=1");
	char *s;
	if (asprintf(&s, "%d", 5) > 0)
		free(s);
	fprintf(stderr, "to stderr\n");
	printf("clean\n");
	fflush(stdout);
	if (__lsan_do_recoverable_leak_check() || __lsan_do_recoverable_leak_check())
		return 2;
	return 0;
}
