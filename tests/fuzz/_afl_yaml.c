/* libyaml's parser over an AFL++ input file: a clean target, on which a
 * fuzzing run must save no crash. The parser is the benchmarks' fuzz
 * target, called from this file-reading main. */
#include <stdio.h>

#include "../../bench/fuzz_yaml_target.c"

int main(int argc, char **argv)
{
	static unsigned char buf[1 << 16];
	if (argc < 2)
		return 2;
	FILE *f = fopen(argv[1], "rb");
	if (!f)
		return 2;
	size_t n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	return LLVMFuzzerTestOneInput(buf, n);
}
