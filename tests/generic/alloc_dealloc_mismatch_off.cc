// MODE: generic
// CFLAGS: -fsized-deallocation
// ASan's alloc_dealloc_mismatch=0 and new_delete_type_mismatch=0 (here
// from the program's __asan_default_options) turn both free-path checks
// off: the mismatched frees below free without a report, and the heap
// stays usable.
// NOT: BUG:
// STDOUT: freed: 4
#include <stdlib.h>

#include <new>

#include "kasan_test.h"

extern "C" const char *__asan_default_options(void)
{
	return "alloc_dealloc_mismatch=0:new_delete_type_mismatch=0";
}

extern "C" KASAN_TEST void unchecked(void)
{
	char *m = (char *)malloc(10);
	OPTIMIZER_HIDE_VAR(m);
	delete m;
	char *a = new char[10];
	OPTIMIZER_HIDE_VAR(a);
	free(a);
	void *volatile p = ::operator new(8);
	::operator delete(p, 3);
	p = ::operator new(64, std::align_val_t(64));
	::operator delete(p);
	printf("freed: %d\n", 4);
}

int main()
{
	unchecked();
	return 0;
}
