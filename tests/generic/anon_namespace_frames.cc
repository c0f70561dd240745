// MODE: generic
// VARIANTS: gcc clang gcc-O2 clang-O2
// RUN: ukasan.asan_lines=on
// The stack of AddressSanitizer's form names each frame as that compiler's
// ASan does: from the debug information, the linkage name (demangled) else
// the plain name. GCC gives a function in an anonymous namespace, or a
// static one, no linkage name, and its ASan (libbacktrace's symbolizer)
// prints "fill", "top", "stat_fn"; clang gives them one, and its ASan
// (llvm-symbolizer) prints the symbol's full name. ukasan printed the
// symbol's name for gcc's build too, and ClusterFuzz's crash state of
// woff2's overflow built by gcc had "woff2::(anonymous namespace)::
// ReconstructGlyf" where ASan's had "ReconstructGlyf". The kernel's call
// trace keeps the symbols' names, as kallsyms gives them, with their
// offsets. (tests/tools/check_asan_names.py compares with the ASan of each
// compiler, when installed.)
// EXPECT: BUG: KASAN: slab-out-of-bounds in outer::(anonymous namespace)::fill+0x
// EXPECT: ERROR: AddressSanitizer: heap-buffer-overflow on address
// EXPECT-RE-GCC: ^    #0 0x[0-9a-f]+ in fill tests/generic/anon_namespace_frames.cc:38$
// EXPECT-RE-GCC: ^    #1 0x[0-9a-f]+ in outer::run\(int\) tests/generic/anon_namespace_frames.cc:45$
// EXPECT-RE-GCC: ^    #2 0x[0-9a-f]+ in top tests/generic/anon_namespace_frames.cc:54$
// EXPECT-RE-GCC: ^    #3 0x[0-9a-f]+ in stat_fn tests/generic/anon_namespace_frames.cc:59$
// EXPECT-RE-CLANG: ^    #0 0x[0-9a-f]+ in outer::\(anonymous namespace\)::fill\(char\*, int\) tests/generic/anon_namespace_frames.cc:38$
// EXPECT-RE-CLANG: ^    #1 0x[0-9a-f]+ in outer::run\(int\) tests/generic/anon_namespace_frames.cc:45$
// EXPECT-RE-CLANG: ^    #2 0x[0-9a-f]+ in \(anonymous namespace\)::top\(int\) tests/generic/anon_namespace_frames.cc:54$
// EXPECT-RE-CLANG: ^    #3 0x[0-9a-f]+ in stat_fn\(int\) tests/generic/anon_namespace_frames.cc:59$
// EXPECT: Call Trace:
// EXPECT-RE: ^ \[<[0-9a-f]+>\] outer::\(anonymous namespace\)::fill\(char\*, int\).*\+0x[0-9a-f]+/0x[0-9a-f]+ tests/generic/anon_namespace_frames.cc:38$
// EXPECT-RE: ^ \[<[0-9a-f]+>\] \(anonymous namespace\)::top\(int\).*\+0x
// EXPECT-RE: ^ \[<[0-9a-f]+>\] stat_fn\(int\).*\+0x
#include <cstdlib>

namespace outer {
namespace {
__attribute__((noinline)) void fill(char *p, int n)
{
	asm volatile("" : : "r"(p) : "memory");
	for (int i = 0; i <= n; i++) /* one past the end */
		p[i] = 1;
}
} // namespace

__attribute__((noinline)) void run(int n)
{
	char *p = (char *)malloc(n);
	fill(p, n);
	asm volatile("" : : "r"(p) : "memory");
	free(p);
}
} // namespace outer

namespace {
__attribute__((noinline)) int top(int n)
{
	outer::run(n);
	return n;
}
} // namespace

static __attribute__((noinline)) int stat_fn(int n) { return top(n) + 1; }

int main(int argc, char **argv)
{
	(void)argv;
	return stat_fn(argc + 7) == 0;
}
