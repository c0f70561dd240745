// MODE: generic
// VARIANTS: clang
// RUN: kasan_multi_shot
// clang's array cookies (gcc emits no calls for them): new T[n] of a type
// with a destructor stores n in the word before the elements and calls
// __asan_poison_cxx_array_cookie on it; delete[] reads it back with
// __asan_load_cxx_array_cookie.
// - an intact array: the cookie is poisoned, its elements are not, and
//   delete[] runs n destructors with no report;
// - a write to the cookie from the program is a slab-out-of-bounds write
//   of 8 bytes at the start of the new[] object (the cookie is where the
//   allocation begins);
// - delete[] of an array already deleted: the cookie, in freed memory,
//   loads as 0 (as ASan's), so no destructor runs over the freed element
//   (which would be a use-after-free report of its own), and the free is
//   reported as a double-free.
// EXPECT: BUG: KASAN: slab-out-of-bounds in write_cookie+0x
// EXPECT: which belongs to the cache new[] of size 20
// EXPECT: The buggy address is located 0 bytes inside of
// EXPECT: BUG: KASAN: double-free in
// COUNT: 2 BUG: KASAN:
// STDOUT: intact: 3 destructors
// STDOUT: after the double delete[]: 1 destructors
// NOT: FAIL
#include <sanitizer/asan_interface.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define CHECK(c)                                                                                   \
	do {                                                                                       \
		if (!(c)) {                                                                        \
			fprintf(stderr, "FAIL line %d: %s\n", __LINE__, #c);                     \
			exit(3);                                                                   \
		}                                                                                  \
	} while (0)

static int destroyed;

struct T {
	int v;
	T() : v(7) {}
	~T()
	{
		CHECK(v == 7); /* never a destructor over garbage */
		destroyed++;
	}
};

extern "C" __attribute__((noinline)) void write_cookie(T *arr)
{
	((volatile size_t *)arr)[-1] = 5;
}

extern "C" __attribute__((noinline)) void double_delete(T *arr)
{
	delete[] arr;
}

int main(void)
{
	/* intact */
	T *a = new T[3];
	uintptr_t cookie = (uintptr_t)a - sizeof(size_t);
	CHECK(__asan_address_is_poisoned((void *)cookie));
	CHECK(!__asan_region_is_poisoned(a, 3 * sizeof(T)));
	delete[] a;
	printf("intact: %d destructors\n", destroyed);
	fflush(stdout);
	CHECK(destroyed == 3);

	/* a write to the cookie: new T[3] is 8 + 3 * 4 bytes */
	T *b = new T[3];
	cookie = (uintptr_t)b - sizeof(size_t);
	printf("EXPECT: Write of size 8 at addr %016lx by task\n", (unsigned long)cookie);
	printf("EXPECT: The buggy address belongs to the object at %016lx\n", (unsigned long)cookie);
	printf("EXPECT: allocated 20-byte region [%016lx, %016lx)\n", (unsigned long)cookie,
	       (unsigned long)cookie + 20);
	fflush(stdout);
	write_cookie(b);
	/* b now says 5: never deleted */

	/* delete[] twice. One element: the free leaves this small object's
	 * first word (the cookie, 1) as it was, where it clears a bigger
	 * one's, so only the load's answer keeps the destructor from running
	 * over the freed element. */
	T *c = new T[1];
	printf("EXPECT: BUG: KASAN: double-free in\nEXPECT: Free of addr %016lx by task\n"
	       "EXPECT: freed 12-byte region [%016lx, %016lx)\n",
	       (unsigned long)c - 8, (unsigned long)c - 8, (unsigned long)c + 4);
	fflush(stdout);
	delete[] c;
	CHECK(destroyed == 4);
	double_delete(c);
	printf("after the double delete[]: %d destructors\n", destroyed - 3);
	return 0;
}
