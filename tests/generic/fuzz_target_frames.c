// MODE: generic
// VARIANTS: gcc clang
// (clang inlines the target into main: an inlined frame so named counts too)
// A bug under a fuzz target's entry (LLVMFuzzerTestOneInput) prints the
// stack in AddressSanitizer's form too, before the kernel's, as a C++
// program's is: ClusterFuzz's parser names that frame by its file (here
// fuzz_target_frames.c) only in ASan's form and drops it from the kernel's,
// so the crash state of a short stack lost a frame ASan's has (c-ares's
// CVE-2016-5180 under its fuzz target: "ares_create_query / run_file", ASan
// "ares_create_query / c-ares.c / run_file").
// EXPECT: BUG: KASAN: slab-out-of-bounds in encode+0x
// EXPECT: ERROR: AddressSanitizer: heap-buffer-overflow on address
// EXPECT-RE: ^    #0 0x[0-9a-f]+ in encode tests/generic/fuzz_target_frames.c:28$
// EXPECT-RE: ^    #1 0x[0-9a-f]+ in LLVMFuzzerTestOneInput tests/generic/fuzz_target_frames.c:37$
// EXPECT: Call Trace:
// EXPECT-RE: ^ \[<[0-9a-f]+>\] LLVMFuzzerTestOneInput\+0x[0-9a-f]+/0x[0-9a-f]+ tests/generic/fuzz_target_frames.c:37( \[inline\])?$
// (A program with a fuzz target ends at its first report, as under libFuzzer.)
// STATUS: signal SIGABRT
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

__attribute__((noinline)) static void encode(unsigned char *out, const uint8_t *data, size_t size)
{
	asm volatile("" : : "r"(out) : "memory");
	out[size] = data[0]; /* one past: the terminator's room was not counted */
	asm volatile("" : : "r"(out) : "memory");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned char *out = malloc(size);
	if (!out)
		return 0;
	encode(out, data, size);
	free(out);
	return 0;
}

int main(void)
{
	static const uint8_t input[] = "abc";
	return LLVMFuzzerTestOneInput(input, 3);
}
