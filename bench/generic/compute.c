/* Compute-heavy workload for the generic-mode benchmarks (run_generic.py):
 * loops of loads and stores over a few large arrays, almost no allocation.
 *
 *   compute [SCALE]
 *
 *  - dense matrix product C = A * B, doubles, i-k-j order;
 *  - Jacobi relaxation of a 2-D grid (5-point stencil), two grids swapped;
 *  - sieve of Eratosthenes over a byte array;
 *  - least-significant-digit radix sort of 32-bit keys (a 256-entry count
 *    array on the stack per pass), then binary searches in the result;
 *  - a histogram and a prefix sum over the sorted keys.
 * Nine allocations per SCALE step, all but one of 64 KiB or more. The
 * output, a checksum, depends only on SCALE. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint64_t next_random(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static void *xmalloc(size_t n)
{
	void *p = malloc(n);
	if (!p) {
		fprintf(stderr, "compute: out of memory\n");
		exit(1);
	}
	return p;
}

static double matmul(int n)
{
	double *a = xmalloc(sizeof(double) * n * n), *b = xmalloc(sizeof(double) * n * n);
	double *c = xmalloc(sizeof(double) * n * n);
	for (int i = 0; i < n * n; i++) {
		a[i] = (double)(next_random() % 1000) / 500.0 - 1.0;
		b[i] = (double)(next_random() % 1000) / 500.0 - 1.0;
		c[i] = 0.0;
	}
	for (int i = 0; i < n; i++)
		for (int k = 0; k < n; k++) {
			double aik = a[i * n + k];
			for (int j = 0; j < n; j++)
				c[i * n + j] += aik * b[k * n + j];
		}
	double s = 0;
	for (int i = 0; i < n * n; i++)
		s += c[i] * (double)(i % 7 + 1);
	free(a);
	free(b);
	free(c);
	return s;
}

static double jacobi(int n, int steps)
{
	double *u = xmalloc(sizeof(double) * n * n), *v = xmalloc(sizeof(double) * n * n);
	for (int i = 0; i < n * n; i++)
		u[i] = v[i] = 0.0;
	for (int i = 0; i < n; i++)
		u[i] = v[i] = 1.0; /* a hot edge */
	for (int t = 0; t < steps; t++) {
		for (int i = 1; i < n - 1; i++)
			for (int j = 1; j < n - 1; j++)
				v[i * n + j] = 0.25 * (u[(i - 1) * n + j] + u[(i + 1) * n + j] +
						       u[i * n + j - 1] + u[i * n + j + 1]);
		double *w = u;
		u = v;
		v = w;
	}
	double s = 0;
	for (int i = 0; i < n * n; i++)
		s += u[i];
	free(u);
	free(v);
	return s;
}

static long sieve(int n)
{
	unsigned char *composite = xmalloc((size_t)n + 1);
	memset(composite, 0, (size_t)n + 1);
	long count = 0;
	for (long i = 2; i <= n; i++) {
		if (composite[i])
			continue;
		count += i;
		for (long j = i * i; j <= n; j += i)
			composite[j] = 1;
	}
	free(composite);
	return count;
}

static void radix_sort(uint32_t *keys, uint32_t *tmp, int n)
{
	for (int shift = 0; shift < 32; shift += 8) {
		unsigned count[256];
		memset(count, 0, sizeof count);
		for (int i = 0; i < n; i++)
			count[(keys[i] >> shift) & 0xff]++;
		unsigned pos = 0;
		for (int d = 0; d < 256; d++) {
			unsigned c = count[d];
			count[d] = pos;
			pos += c;
		}
		for (int i = 0; i < n; i++)
			tmp[count[(keys[i] >> shift) & 0xff]++] = keys[i];
		memcpy(keys, tmp, sizeof(uint32_t) * n);
	}
}

static int search(const uint32_t *keys, int n, uint32_t key)
{
	int lo = 0, hi = n;
	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;
		if (keys[mid] < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static uint64_t sort_and_search(int n, int queries)
{
	uint32_t *keys = xmalloc(sizeof(uint32_t) * n), *tmp = xmalloc(sizeof(uint32_t) * n);
	for (int i = 0; i < n; i++)
		keys[i] = (uint32_t)next_random();
	radix_sort(keys, tmp, n);
	for (int i = 1; i < n; i++)
		if (keys[i - 1] > keys[i]) {
			fprintf(stderr, "compute: not sorted\n");
			exit(1);
		}
	uint64_t s = 0;
	for (int q = 0; q < queries; q++)
		s += (uint64_t)search(keys, n, (uint32_t)next_random());
	/* histogram of the top 12 bits, then a prefix sum over it */
	uint32_t *hist = xmalloc(sizeof(uint32_t) * 4096);
	memset(hist, 0, sizeof(uint32_t) * 4096);
	for (int i = 0; i < n; i++)
		hist[keys[i] >> 20]++;
	for (int i = 1; i < 4096; i++)
		hist[i] += hist[i - 1];
	s += hist[2047] + hist[4095];
	free(hist);
	free(keys);
	free(tmp);
	return s;
}

int main(int argc, char **argv)
{
	int scale = argc > 1 ? atoi(argv[1]) : 4;
	if (scale < 1 || scale > 64) {
		fprintf(stderr, "usage: compute [SCALE], SCALE 1..64\n");
		return 2;
	}
	double m = 0, j = 0;
	long p = 0;
	uint64_t s = 0;
	for (int r = 0; r < scale; r++) {
		m += matmul(200);
		j += jacobi(512, 40);
		p += sieve(4000000);
		s += sort_and_search(1 << 20, 1 << 19);
	}
	printf("matmul %.6e jacobi %.6e sieve %ld sort %llu\n", m, j, p, (unsigned long long)s);
	return 0;
}
