// RUN: kfence.sample_rate=1
// EXPECT: BUG: KFENCE: out-of-bounds write in main+0x
// EXPECT: cache=new[]
// EXPECT: BUG: KFENCE: use-after-free read in main+0x
// EXPECT: cache=new
// COUNT: 2 BUG: KFENCE:
#include <cstdint>
#include <new>

#include "kfence_test.h"

struct alignas(64) Wide {
	char b[64];
};

int main()
{
	/* new[] and new, plain, nothrow and aligned, all reach the pool. */
	int *arr = nullptr;
	for (int i = 0; i < 200 && !arr; i++) {
		int *a = new int[8];
		if (ukasan_is_kfence_address(a) && ((uintptr_t)(a + 8)) % 4096 == 0)
			arr = a;
		else
			delete[] a;
	}
	if (!arr)
		return 78;
	expect("Out-of-bounds write at %p (32B right of kfence-#", (void *)(arr + 8));
	((volatile int *)arr)[8] = 1;
	delete[] arr;
	Wide *w = new Wide;
	if ((uintptr_t)w % 64)
		return 77;
	delete w;
	int *n = new (std::nothrow) int(5);
	delete n;
	long *obj = nullptr;
	for (int i = 0; i < 200 && !obj; i++) {
		long *o = new long(7);
		if (ukasan_is_kfence_address(o))
			obj = o;
		else
			delete o;
	}
	if (!obj)
		return 76;
	delete obj;
	expect("Use-after-free read at %p (in kfence-#", (void *)obj);
	long v = *(volatile long *)obj;
	(void)v;
	return 0;
}
