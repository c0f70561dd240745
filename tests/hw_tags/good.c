// ARCH: aarch64 -- memory tagging is arm64's
// RUN: kasan=on kfence.sample_interval=0
// NOT: BUG: KASAN
// NOT: ukasan
// STDOUT: sorted 1000
// STDOUT: lines 3 bytes 27
// STDOUT: joined alpha-beta-gamma
// STDOUT: read 4096
// STDOUT: grown 100000
#include "hw_tags/hw_tags_test.h"

#include <fcntl.h>
#include <stdio.h>

/* Correct programs get no report: glibc's own code (qsort, getline, strdup,
 * printf, read(2) through tagged pointers) on tagged heap objects, with
 * every access checked by the CPU. */
static int cmp(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

int main(void)
{
	int *v = malloc(1000 * sizeof(int));
	for (int i = 0; i < 1000; i++)
		v[i] = (i * 7919) % 1000;
	qsort(v, 1000, sizeof(int), cmp);
	int ok = 1;
	for (int i = 0; i < 1000; i++)
		ok &= v[i] == i;
	printf("sorted %d\n", ok ? 1000 : -1);
	free(v);

	/* getline grows its heap buffer with realloc. */
	char tmp[] = "/tmp/hw_tags_good_XXXXXX";
	int fd = mkstemp(tmp);
	HW_CHECK(write(fd, "first\nsecond line\nthird\n", 24) == 24);
	FILE *f = fdopen(fd, "r");
	rewind(f);
	char *line = NULL;
	size_t cap = 0, bytes = 0;
	int lines = 0;
	ssize_t n;
	while ((n = getline(&line, &cap, f)) > 0) {
		lines++;
		bytes += (size_t)n + 1;
	}
	printf("lines %d bytes %zu\n", lines, bytes);
	free(line);
	fclose(f);
	unlink(tmp);

	/* strdup, snprintf and printf of heap strings, of every length. */
	char *a = strdup("alpha"), *b = strdup("beta"), *c = strdup("gamma");
	size_t len = strlen(a) + strlen(b) + strlen(c) + 3;
	char *j = malloc(len);
	snprintf(j, len, "%s-%s-%s", a, b, c);
	printf("joined %s\n", j);
	FILE *null = fopen("/dev/null", "w");
	for (size_t k = 1; k < 300; k++) {
		char *s = malloc(k);
		memset(s, 'x', k - 1);
		s[k - 1] = 0;
		char *d = strdup(s);
		HW_CHECK(strlen(d) == k - 1 && strcmp(d, s) == 0 && !memcmp(d, s, k));
		HW_CHECK(strchr(d, 'y') == NULL && strrchr(d, 0) == d + k - 1);
		fprintf(null, "%s|%.*s|%10s\n", d, (int)(k / 2), s, d);
		free(d);
		free(s);
	}
	fclose(null);
	free(a), free(b), free(c), free(j);

	/* read(2) into a tagged buffer: the kernel takes tagged pointers. */
	char *buf = malloc(4096);
	int z = open("/dev/zero", O_RDONLY);
	printf("read %zd\n", read(z, buf, 4096));
	close(z);
	free(buf);

	/* A realloc loop, as growing arrays do. */
	int *g = NULL;
	for (int i = 0; i < 100000; i++) {
		if ((i & (i - 1)) == 0 || i % 1000 == 0)
			g = realloc(g, ((size_t)i + 1000) * sizeof(int));
		g[i] = i;
	}
	long sum = 0;
	for (int i = 0; i < 100000; i++)
		sum += g[i] == i;
	printf("grown %ld\n", sum);
	free(g);
	return 0;
}
