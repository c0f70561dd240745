// MODE: sw_tags
// VARIANTS: gcc clang clang-calls
// HWASAN: clean -- correct programs
// Correct programs with tagged heap pointers: no report, and the right
// results. System calls take tagged buffers (the tagged-address ABI is on:
// write(2) and read(2) through a pipe), libc works on them (qsort, strtok,
// getline, printf, snprintf, strdup), realloc grows a buffer in a loop
// (the contents follow it, each new tag covers the whole object), and a
// thousand objects of every small size are written to their last byte.
// STDOUT: pipe: hello tags
// STDOUT: qsort: 1 2 3 5 8 13
// STDOUT: strtok: a|bb|ccc
// STDOUT: getline: 3 lines, 29 bytes
// STDOUT: realloc: 100000 bytes ok
// STDOUT: sizes ok
// STDOUT: printf: 42 heap-string
// NOT: BUG: KASAN
// NOT: ukasan:
#include "tags_test.h"

#include <stdio.h>

static int cmp(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

int main(int argc, char **argv)
{
	tags_select(argc, argv);
	int fds[2];
	char *out = strdup("hello tags"), *in = calloc(1, 64);
	if (pipe(fds) || write(fds[1], out, strlen(out)) != (ssize_t)strlen(out) ||
	    read(fds[0], in, 63) != (ssize_t)strlen(out))
		printf("pipe failed\n");
	printf("pipe: %s\n", in);

	int *v = malloc(6 * sizeof(int));
	int init[] = {8, 3, 13, 1, 5, 2};
	memcpy(v, init, sizeof(init));
	qsort(v, 6, sizeof(int), cmp);
	printf("qsort: %d %d %d %d %d %d\n", v[0], v[1], v[2], v[3], v[4], v[5]);

	char *s = strdup("a,bb;ccc"), *save = NULL, *joined = malloc(32);
	joined[0] = 0;
	for (char *t = strtok_r(s, ",;", &save); t; t = strtok_r(NULL, ",;", &save)) {
		if (joined[0])
			strcat(joined, "|");
		strcat(joined, t);
	}
	printf("strtok: %s\n", joined);

	FILE *f = tmpfile();
	fputs("first line\nsecond\nthird line\n", f);
	rewind(f);
	char *line = NULL;
	size_t cap = 0, total = 0;
	int lines = 0;
	ssize_t n;
	while ((n = getline(&line, &cap, f)) > 0) {
		lines++;
		total += (size_t)n;
	}
	fclose(f);
	printf("getline: %d lines, %zu bytes\n", lines, total);

	char *buf = NULL;
	size_t len = 0;
	int bad = 0;
	while (len < 100000) {
		size_t more = len + 1000;
		buf = realloc(buf, more);
		memset(buf + len, (int)(len / 1000), 1000);
		len = more;
	}
	for (size_t i = 0; i < len; i++)
		bad |= buf[i] != (char)(i / 1000);
	printf("realloc: %zu bytes %s\n", len, bad ? "corrupt" : "ok");

	char *objs[1000];
	for (int i = 0; i < 1000; i++) {
		objs[i] = malloc((size_t)i + 1);
		objs[i][i] = (char)i;
	}
	for (int i = 0; i < 1000; i++) {
		bad |= objs[i][i] != (char)i;
		free(objs[i]);
	}
	printf("sizes %s\n", bad ? "corrupt" : "ok");

	char *word = strdup("heap-string"), *msg = malloc(64);
	snprintf(msg, 64, "%d %s", 42, word);
	printf("printf: %s\n", msg);

	free(out);
	free(in);
	free(v);
	free(s);
	free(joined);
	free(line);
	free(buf);
	free(word);
	free(msg);
	return 0;
}
