/* A stand-in for a fuzzing engine's main: runs the fuzz target
 * LLVMFuzzerTestOneInput once on each file named on the command line, as a
 * libFuzzer binary does when given crash files to reproduce. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		perror(path);
		return 1;
	}
	size_t cap = 4096, len = 0;
	uint8_t *buf = malloc(cap);
	size_t n;
	while (buf && (n = fread(buf + len, 1, cap - len, f)) > 0) {
		len += n;
		if (len == cap) {
			cap *= 2;
			uint8_t *bigger = realloc(buf, cap);
			if (!bigger) {
				free(buf);
				buf = NULL;
			}
			buf = bigger;
		}
	}
	fclose(f);
	if (!buf) {
		fprintf(stderr, "%s: out of memory\n", path);
		return 1;
	}
	/* The input in an allocation of exactly its size, as libFuzzer passes it,
	 * so that a read past its end is caught. */
	uint8_t *exact = malloc(len ? len : 1);
	if (!exact) {
		free(buf);
		return 1;
	}
	for (size_t i = 0; i < len; i++)
		exact[i] = buf[i];
	free(buf);
	fprintf(stderr, "Running: %s (%zu bytes)\n", path, len);
	LLVMFuzzerTestOneInput(exact, len);
	free(exact);
	return 0;
}

int main(int argc, char **argv)
{
	int rc = 0;
	for (int i = 1; i < argc; i++)
		rc |= run_file(argv[i]);
	return rc;
}
