// RUN: kfence.sample_rate=1
// RUN-ALSO: kfence.sample_interval=1 kfence.burst=32
// REPEAT: 20
// STDOUT: locale_stdio: 4 threads, every string and file right
// NOT: BUG: KFENCE
// NOT: ukasan:
#include "_stress.h"

#include <locale.h>
#include <pthread.h>
#include <wchar.h>

/* glibc allocates while it holds its own locks: the locale lock in
 * setlocale, newlocale and duplocale, the stream list lock in fopen and
 * fclose, a stream's lock in its first write (the buffer). Threads churn
 * all of these at once, the main thread switching the global locale, the
 * others using locales of their own (uselocale), and check every result:
 * numbers formatted and parsed under each locale, files written and read
 * back, memory streams. */
#define THREADS 4
#define ROUNDS  80

static const char *tmpdir;
static volatile int stop;

static void one_file(long id, int r, unsigned *seed)
{
	char path[512], line[256];
	snprintf(path, sizeof(path), "%s/stress-locale-%d-%ld-%d.txt", tmpdir, (int)getpid(), id, r);
	FILE *f = fopen(path, "w");
	CHECK(f);
	int lines = 1 + (int)(next_rand(seed) % 40);
	for (int i = 0; i < lines; i++)
		CHECK(fprintf(f, "%ld %d %d %.3f\n", id, r, i, i / 8.0) > 0);
	CHECK(fclose(f) == 0);
	f = fopen(path, "r");
	CHECK(f);
	setvbuf(f, NULL, _IOFBF, 512 + next_rand(seed) % 4096); /* a buffer of its own */
	for (int i = 0; i < lines; i++) {
		char want[128];
		snprintf(want, sizeof(want), "%ld %d %d %.3f\n", id, r, i, i / 8.0);
		CHECK(fgets(line, sizeof(line), f) && strcmp(line, want) == 0);
	}
	CHECK(fgets(line, sizeof(line), f) == NULL);
	CHECK(fclose(f) == 0);
	CHECK(unlink(path) == 0);
}

static void memory_streams(long id, int r)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	CHECK(m);
	for (int i = 0; i < 50; i++)
		fprintf(m, "%ld:%d:%d;", id, r, i);
	CHECK(fclose(m) == 0);
	CHECK(buf && len == strlen(buf) && strncmp(buf, "", 0) == 0);
	char first[32];
	snprintf(first, sizeof(first), "%ld:%d:0;", id, r);
	CHECK(strncmp(buf, first, strlen(first)) == 0);
	FILE *in = fmemopen(buf, len, "r");
	CHECK(in);
	long a;
	int b, c;
	CHECK(fscanf(in, "%ld:%d:%d;", &a, &b, &c) == 3 && a == id && b == r && c == 0);
	CHECK(fclose(in) == 0);
	free(buf);
	char *s = NULL;
	CHECK(asprintf(&s, "%s-%ld-%d", "asprintf", id, r) > 0);
	char want[64];
	snprintf(want, sizeof(want), "asprintf-%ld-%d", id, r);
	CHECK(strcmp(s, want) == 0);
	free(s);
}

static void *worker(void *arg)
{
	long id = (long)arg;
	unsigned seed = (unsigned)id * 2654435761u | 1;
	for (int r = 0; r < ROUNDS; r++) {
		/* A locale of this thread's own: global changes do not reach it. */
		locale_t base = newlocale(LC_ALL_MASK, r % 2 ? "C.UTF-8" : "C", (locale_t)0);
		CHECK(base);
		locale_t dup = duplocale(base);
		CHECK(dup);
		locale_t num = newlocale(LC_NUMERIC_MASK, "POSIX", dup);
		CHECK(num);
		locale_t old = uselocale(num);
		char text[64];
		snprintf(text, sizeof(text), "%.2f", 1234.5 + r);
		char want[64];
		sprintf(want, "%d.50", 1234 + r);
		CHECK(strcmp(text, want) == 0);
		CHECK(strtod(text, NULL) == 1234.5 + r);
		wchar_t w[16];
		CHECK(mbstowcs(w, "abc", 16) == 3 && w[2] == L'c');
		/* Still under this thread's locale: the global one is not
		 * safe to use while the main thread changes it. */
		if (r % 3 == 0)
			one_file(id, r, &seed);
		else
			memory_streams(id, r);
		churn(&seed, 3);
		uselocale(old);
		freelocale(num);
		freelocale(base);
	}
	return NULL;
}

int main(void)
{
	tmpdir = getenv("UKASAN_TEST_TMP");
	if (!tmpdir)
		tmpdir = "/tmp";
	pthread_t t[THREADS];
	for (long i = 0; i < THREADS; i++)
		CHECK(pthread_create(&t[i], NULL, worker, (void *)(i + 1)) == 0);
	/* The global locale, switched back and forth meanwhile: the threads
	 * above do not use it (each has its own all along) but take the
	 * same lock. */
	for (int r = 0; r < 4 * ROUNDS; r++) {
		const char *want = r % 2 ? "C.UTF-8" : "C";
		char *got = setlocale(LC_ALL, want);
		CHECK(got);
		CHECK(strcmp(setlocale(LC_CTYPE, NULL), r % 2 ? "C.UTF-8" : "C") == 0);
		CHECK(setlocale(LC_NUMERIC, "POSIX"));
	}
	for (int i = 0; i < THREADS; i++)
		CHECK(pthread_join(t[i], NULL) == 0);
	CHECK(setlocale(LC_ALL, "C"));
	printf("locale_stdio: %d threads, every string and file right\n", THREADS);
	return 0;
}
