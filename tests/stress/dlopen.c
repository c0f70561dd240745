// RUN: kfence.sample_rate=1
// RUN-ALSO: kfence.sample_interval=1 kfence.burst=32
// REPEAT: 20
// STDOUT: dlopen: 4 threads, every library call right
// NOT: BUG: KFENCE
// NOT: ukasan:
// CFLAGS: -ldl
#include "_stress.h"

#include <dlfcn.h>
#include <link.h>
#include <pthread.h>

/* dlopen and dlclose of system libraries from several threads at once,
 * while they allocate: the dynamic linker allocates while it holds its own
 * lock, libraries are mapped and unmapped under the threads' feet, and
 * code at a given address may be another library's after a dlclose. In
 * between, each thread calls into the library (zlib allocating through
 * malloc on the way, so guarded allocations are made with the library's
 * frames on the stack) and checks the result. */
#define THREADS 4
#define ROUNDS  60

typedef int (*compress2_fn)(unsigned char *, unsigned long *, const unsigned char *,
                            unsigned long, int);
typedef int (*uncompress_fn)(unsigned char *, unsigned long *, const unsigned char *,
                             unsigned long);
typedef unsigned long (*crc32_fn)(unsigned long, const unsigned char *, unsigned);
typedef double (*ldexp_fn)(double, int);

static void use_zlib(unsigned *seed)
{
	void *h = dlopen("libz.so.1", RTLD_NOW | RTLD_LOCAL);
	CHECK(h);
	compress2_fn c = (compress2_fn)dlsym(h, "compress2");
	uncompress_fn u = (uncompress_fn)dlsym(h, "uncompress");
	crc32_fn crc = (crc32_fn)dlsym(h, "crc32");
	CHECK(c && u && crc);
	unsigned char in[2048], out[4096], back[2048];
	size_t n = 256 + next_rand(seed) % 1792;
	for (size_t i = 0; i < n; i++)
		in[i] = (unsigned char)("abcabcabd"[i % 9] + (i / 300));
	unsigned long clen = sizeof(out), blen = sizeof(back);
	CHECK(c(out, &clen, in, n, 6) == 0);
	CHECK(u(back, &blen, out, clen) == 0);
	CHECK(blen == n && memcmp(in, back, n) == 0);
	CHECK(crc(0, in, (unsigned)n) == crc(0, back, (unsigned)blen));
	CHECK(dlclose(h) == 0);
}

static void use_libm(void)
{
	void *h = dlopen("libm.so.6", RTLD_NOW | RTLD_LOCAL);
	CHECK(h);
	ldexp_fn f = (ldexp_fn)dlsym(h, "ldexp");
	CHECK(f && f(3.0, 4) == 48.0);
	CHECK(dlclose(h) == 0);
}

typedef char *(*crypt_r_fn)(const char *, const char *, void *);

static void use_libcrypt(void)
{
	void *h = dlopen("libcrypt.so.1", RTLD_NOW | RTLD_LOCAL);
	CHECK(h);
	crypt_r_fn f = (crypt_r_fn)dlsym(h, "crypt_r");
	CHECK(f);
	/* struct crypt_data is 32 KiB: big for the pool, from the heap. */
	char *data = calloc(1, 32768), first[128];
	CHECK(data);
	char *r = f("stress", "$5$ukasan$", data);
	CHECK(r && strncmp(r, "$5$ukasan$", 10) == 0 && strlen(r) < sizeof(first));
	strcpy(first, r);
	memset(data, 0, 32768);
	r = f("stress", "$5$ukasan$", data);
	CHECK(r && strcmp(r, first) == 0);
	free(data);
	CHECK(dlclose(h) == 0);
}

/* A library whose constructors allocate, from inside dlopen (it stays
 * loaded afterwards: libstdc++ is not unloadable). */
static void use_libstdcxx(void)
{
	void *h = dlopen("libstdc++.so.6", RTLD_NOW | RTLD_LOCAL);
	CHECK(h);
	CHECK(dlsym(h, "_ZNSt8ios_base4InitC1Ev"));
	CHECK(dlclose(h) == 0);
}

/* Walking the loaded objects holds the linker's lock: the callback may
 * allocate. */
static int each_object(struct dl_phdr_info *info, size_t size, void *arg)
{
	(void)size;
	size_t n = strlen(info->dlpi_name) + 1;
	char *copy = malloc(n);
	CHECK(copy);
	memcpy(copy, info->dlpi_name, n);
	CHECK(strcmp(copy, info->dlpi_name) == 0);
	free(copy);
	(*(int *)arg)++;
	return 0;
}

static void *worker(void *arg)
{
	unsigned seed = (unsigned)(uintptr_t)arg * 2654435761u | 1;
	for (int r = 0; r < ROUNDS; r++) {
		int objects = 0;
		switch ((r + (int)(uintptr_t)arg) % 6) {
		case 0:
			use_zlib(&seed);
			break;
		case 1:
			use_libm();
			break;
		case 2:
			use_libcrypt();
			break;
		case 3:
			/* A missing library: dlerror's message is allocated. */
			CHECK(dlopen("libukasan-no-such-library.so.7", RTLD_NOW) == NULL);
			CHECK(dlerror() != NULL);
			break;
		case 4:
			use_libstdcxx();
			break;
		case 5:
			dl_iterate_phdr(each_object, &objects);
			CHECK(objects >= 3);
			break;
		}
		churn(&seed, 20);
	}
	return NULL;
}

int main(void)
{
	pthread_t t[THREADS];
	for (long i = 0; i < THREADS; i++)
		CHECK(pthread_create(&t[i], NULL, worker, (void *)(i + 1)) == 0);
	for (int i = 0; i < THREADS; i++)
		CHECK(pthread_join(t[i], NULL) == 0);
	printf("dlopen: %d threads, every library call right\n", THREADS);
	return 0;
}
