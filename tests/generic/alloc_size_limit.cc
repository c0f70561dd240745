// MODE: generic
// RUN: kasan_multi_shot ukasan.max_allocation_size_mb=1
// ukasan.max_allocation_size_mb (ASan's max_allocation_size_mb): a request
// over the limit is allocation-size-too-big. A throwing new of it is
// reported once (not again by libstdc++'s new, which retries with malloc)
// and throws std::bad_alloc; the nothrow new returns NULL; a request at
// the limit is served.
// EXPECT: BUG: KASAN: allocation-size-too-big in too_big+0x
// EXPECT: 2097152 bytes (0x200000), more than the maximum supported size 0x100000
// EXPECT: BUG: KASAN: allocation-size-too-big in too_big+0x
// EXPECT: 1048577 bytes (0x100001), more than the maximum supported size 0x100000
// COUNT: 2 BUG: KASAN:
// STDOUT: new: bad_alloc
// STDOUT: nothrow new: NULL
// STDOUT: at the limit: ok
#include <new>

#include "kasan_test.h"

extern "C" KASAN_TEST void too_big(void)
{
	volatile size_t two = 2ul << 20, limit = 1ul << 20;
	try {
		char *volatile p = new char[two];
		printf("new: %p\n", (void *)p);
	} catch (std::bad_alloc &) {
		printf("new: bad_alloc\n");
	}
	char *volatile q = new (std::nothrow) char[limit + 1];
	printf("nothrow new: %s\n", q ? "not NULL" : "NULL");
	char *volatile r = new char[limit];
	printf("at the limit: %s\n", r ? "ok" : "NULL");
	delete[] r;
}

int main()
{
	too_big();
	return 0;
}
