// MODE: generic
// VARIANTS: gcc clang gcc-O2 clang-O2
// RUN: ukasan.dedup_token_length=3 ukasan.asan_lines=on
// A C++ method inlined into its caller makes the bad access: the title
// names the method (without its parameters, as C++ titles are), the
// kernel-form stack lists it with its parameters, marked [inline], and the
// AddressSanitizer-form stack (for C++ names, where ASan's readers are:
// asan_lines=on) numbers it as a frame of its own with the same pc, as ASan.
// EXPECT: BUG: KASAN: slab-out-of-bounds in ns::Buffer::put+0x
// EXPECT-RE: ^    #0 0x([0-9a-f]+) in ns::Buffer::put\(int, char\) tests/generic/inline_frames_cxx.cc:23\n    #1 0x\1 in fill\(ns::Buffer&, int\) tests/generic/inline_frames_cxx.cc:30\n    #2 0x[0-9a-f]+ in main tests/generic/inline_frames_cxx.cc:37$
// EXPECT-RE: ^ \[<([0-9a-f]+)>\] ns::Buffer::put\(int, char\)\+0x[0-9a-f]+/0x[0-9a-f]+ tests/generic/inline_frames_cxx.cc:23 \[inline\]\n \[<\1>\] fill\(ns::Buffer&, int\)\+0x[0-9a-f]+/0x[0-9a-f]+ tests/generic/inline_frames_cxx.cc:30$
// EXPECT: DEDUP_TOKEN: slab-out-of-bounds--ns::Buffer::put(int, char)--fill(ns::Buffer&, int)--main
#include <stdlib.h>

namespace ns {
struct Buffer {
	volatile char *data;
	__attribute__((always_inline)) inline void put(int i, char c);
};

inline void Buffer::put(int i, char c)
{
	data[i] = c;
}
} // namespace ns

__attribute__((noinline)) void fill(ns::Buffer &b, int i)
{
	asm volatile("" : : "r"(&b) : "memory");
	b.put(i, 'x');
	asm volatile("" : : "r"(&b) : "memory");
}

int main(int argc, char **)
{
	ns::Buffer b{static_cast<volatile char *>(malloc(16))};
	fill(b, 15 + argc);
	free(const_cast<char *>(b.data));
	return 0;
}
