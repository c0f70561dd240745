// MODE: generic
// VARIANTS: gcc clang gcc-O2 clang-O2
// RUN: ukasan.asan_lines=on
// A bad memcpy is reported as ASan reports it: the interceptor is one frame
// (memcpy, or none for clang's __asan_memcpy), with no frame for the helper
// inlined into it (check_range, declared in src/interceptors/intercept.h),
// and the caller's line. ClusterFuzz's parser took that helper, which is in
// none of its ignore lists, as the crash state's first frame (woff2's
// Buffer::Read overflow, built by gcc: "check_range / woff2::Buffer::Read").
// Both stacks are checked: the kernel's call trace and, for a C++ name,
// ASan's form beside it.
// EXPECT: BUG: KASAN: slab-out-of-bounds in app::copy_in+0x
// EXPECT-RE: ^    #[01] 0x[0-9a-f]+ in app::copy_in\(char\*, char const\*, unsigned long\) tests/generic/inline_frames_interceptor.cc:25$
// EXPECT: Call Trace:
// EXPECT-RE: ^ \[<[0-9a-f]+>\] app::copy_in\(char\*, char const\*, unsigned long\)\+0x[0-9a-f]+/0x[0-9a-f]+ tests/generic/inline_frames_interceptor.cc:25$
// NOT: check_range
// NOT: intercept.h
#include <cstdlib>
#include <cstring>

namespace app {
__attribute__((noinline)) void copy_in(char *dst, const char *src, unsigned long n)
{
	asm volatile("" : : "r"(dst), "r"(src) : "memory");
	memcpy(dst, src, n);
	asm volatile("" : : "r"(dst) : "memory");
}
} // namespace app

int main(int argc, char **argv)
{
	(void)argv;
	char *dst = (char *)malloc(16);
	char src[32] = {1};
	app::copy_in(dst, src, 16 + argc);
	free(dst);
	return 0;
}
