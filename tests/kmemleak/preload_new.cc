// Under the preload with kmemleak=on, C++ new and new[] are tracked: a
// dropped object and a dropped array are reported with the leaking
// function, and what delete and delete[] freed (sized, aligned) is none.
// RUN: kmemleak=on
// RUN-ALSO: kmemleak=on kfence.sample_interval=0
// CFLAGS: -O1
// STATUS: 1
// EXPECT-RE: unreferenced object 0x[0-9a-f]{16} \(size 400\):(\n.*){5,16}\n    \[<[0-9a-f]+>\] lose_array\(\)\+0x
// EXPECT-RE: unreferenced object 0x[0-9a-f]{16} \(size 24\):(\n.*){5,16}\n    \[<[0-9a-f]+>\] lose_object\(\)\+0x
// COUNT: 2 unreferenced object 0x
#include <new>

#include "leak_test.h"

struct thing {
	long a, b, c;
};
struct alignas(64) wide {
	char x[100];
};

LEAK_TEST void lose_object()
{
	thing *t = new thing();
	HIDE(t);
}

LEAK_TEST void lose_array()
{
	int *a = new int[100];
	HIDE(a);
}

LEAK_TEST void freed()
{
	thing *t = new thing();
	HIDE(t);
	delete t;
	int *a = new int[10];
	HIDE(a);
	delete[] a;
	wide *w = new wide();
	HIDE(w);
	delete w;
	int *n = new (std::nothrow) int[5];
	HIDE(n);
	delete[] n;
}

int main()
{
	run_deep(freed);
	run_deep(lose_object);
	run_deep(lose_array);
	clear_stack();
	return 0;
}
