/* The library that _own_alloc_main.cc links: its calls of what the program
 * does not define go to libukasan.so, and from there must come back to the
 * program's allocator. */
#include <malloc.h>
#include <new>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern "C" void lib_work(void)
{
	char *s = strdup("from libc, freed by the program");
	free(s);
	int *a = (int *)reallocarray(NULL, 4, sizeof(int));
	a = (int *)reallocarray(a, 4096, sizeof(int));
	a[4095] = 1;
	free(a);
	volatile size_t huge = (size_t)1 << 62;
	if (reallocarray(NULL, huge, 8))
		abort(); /* the overflow is caught */
	void *p = operator new(40);
	operator delete(p, (size_t)40);
	p = operator new[](40);
	operator delete[](p, (size_t)40);
	p = operator new[](40);
	operator delete[](p);
	p = operator new(40, std::nothrow);
	operator delete(p, std::nothrow);
	p = operator new[](40, std::nothrow);
	operator delete[](p, std::nothrow);
	printf("lib ok\n");
}
