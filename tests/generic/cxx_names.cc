// MODE: generic
// C++ functions are named as written, not mangled: in the title without
// their parameter list (as syzkaller reads a title's function), in the
// access stack and the allocation stack.
// EXPECT: BUG: KASAN: slab-out-of-bounds in shapes::Grid::poke+0x
// EXPECT-RE: ^Write of size 4 at addr [0-9a-f]{16} by task \S+/\d+$
// EXPECT-RE: ^ \[<[0-9a-f]+>\] shapes::Grid::poke\(int\)\+0x[0-9a-f]+/0x[0-9a-f]+ tests/generic/cxx_names.cc:\d+$
// EXPECT-RE: ^ \[<[0-9a-f]+>\] void shapes::fill<int>\(shapes::Grid&, int\)\+0x[0-9a-f]+/0x[0-9a-f]+ tests/generic/cxx_names.cc:\d+$
// EXPECT-RE: ^Allocated by task \d+:\n shapes::Grid::Grid\(int\)\+0x[0-9a-f]+/0x[0-9a-f]+ tests/generic/cxx_names.cc:\d+$
// EXPECT: which belongs to the cache new[] of size 40
// NOT: _ZN6shapes
// COUNT: 1 BUG: KASAN:
#include "kasan_test.h"

namespace shapes {
struct Grid {
	int *cells;
	explicit Grid(int n);
	~Grid() { delete[] cells; }
	void poke(int i);
};

__attribute__((noinline)) Grid::Grid(int n) : cells(new int[n]) {}

__attribute__((noinline)) void Grid::poke(int i)
{
	((volatile int *)cells)[i] = i;
}

template <typename T> __attribute__((noinline)) void fill(Grid &g, T n)
{
	for (T i = 0; i <= n; i++) /* one too many */
		g.poke(i);
}
} // namespace shapes

int main()
{
	shapes::Grid g(10);
	shapes::fill<int>(g, 10);
	return 0;
}
