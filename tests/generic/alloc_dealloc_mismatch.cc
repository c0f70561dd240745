// MODE: generic
// RUN: kasan_multi_shot
// ASan's alloc-dealloc-mismatch (on by default on Linux): an object freed
// by another family than the one that allocated it (malloc, calloc,
// realloc, strdup: free; new: delete; new[]: delete[]). Each is reported
// in the caller of the free, with the object, its cache (the allocating
// family) and its allocation stack; the free then proceeds, and the
// program runs on with its heap intact.
// EXPECT: BUG: KASAN: alloc-dealloc-mismatch in mismatches+0x
// EXPECT: Allocated by malloc, freed by operator delete
// EXPECT: which belongs to the cache malloc of size 10
// EXPECT: Allocated by malloc, freed by operator delete []
// EXPECT: which belongs to the cache calloc of size 12
// EXPECT: Allocated by malloc, freed by operator delete
// EXPECT: which belongs to the cache realloc of size 20
// EXPECT: Allocated by malloc, freed by operator delete []
// EXPECT: which belongs to the cache malloc of size 6
// EXPECT: Allocated by operator new, freed by free
// EXPECT: which belongs to the cache new of size 8
// EXPECT: Allocated by operator new, freed by operator delete []
// EXPECT: Allocated by operator new [], freed by operator delete
// EXPECT: which belongs to the cache new[] of size 10
// EXPECT: Allocated by operator new [], freed by free
// COUNT: 8 BUG: KASAN: alloc-dealloc-mismatch in mismatches+0x
// COUNT: 8 BUG: KASAN:
// STDOUT: ran on: heap intact
#include <stdlib.h>
#include <string.h>

#include "_free_mismatch.h"

struct Pair {
	long a;
};

extern "C" KASAN_TEST void mismatches(void)
{
	char *m = (char *)malloc(10); int ml = __LINE__;
	OPTIMIZER_HIDE_VAR(m);
	FREE_EXPECT_FAIL(delete m, .type = "alloc-dealloc-mismatch", .rw = "Free", .addr = m, .obj = m, .obj_size = 10, .cache = "malloc", .alloc_line = ml);
	char *c = (char *)calloc(3, 4); int cl = __LINE__;
	OPTIMIZER_HIDE_VAR(c);
	FREE_EXPECT_FAIL(delete[] c, .type = "alloc-dealloc-mismatch", .rw = "Free", .addr = c, .obj = c, .obj_size = 12, .cache = "calloc", .alloc_line = cl);
	char *none = NULL;
	OPTIMIZER_HIDE_VAR(none); /* or the compiler makes it a malloc */
	char *r = (char *)realloc(none, 20); int rl = __LINE__;
	OPTIMIZER_HIDE_VAR(r);
	FREE_EXPECT_FAIL(delete r, .type = "alloc-dealloc-mismatch", .rw = "Free", .addr = r, .obj = r, .obj_size = 20, .cache = "realloc", .alloc_line = rl);
	char *d = strdup("hello");
	OPTIMIZER_HIDE_VAR(d);
	FREE_EXPECT_FAIL(delete[] d, .type = "alloc-dealloc-mismatch", .rw = "Free", .addr = d, .obj = d, .obj_size = 6, .cache = "malloc");
	Pair *n = new Pair(); int nl = __LINE__;
	OPTIMIZER_HIDE_VAR(n);
	FREE_EXPECT_FAIL(free(n), .type = "alloc-dealloc-mismatch", .rw = "Free", .addr = n, .obj = n, .obj_size = 8, .cache = "new", .alloc_line = nl);
	Pair *n2 = new Pair(); int n2l = __LINE__;
	OPTIMIZER_HIDE_VAR(n2);
	FREE_EXPECT_FAIL(delete[] n2, .type = "alloc-dealloc-mismatch", .rw = "Free", .addr = n2, .obj = n2, .obj_size = 8, .cache = "new", .alloc_line = n2l);
	char *a = new char[10]; int al = __LINE__;
	OPTIMIZER_HIDE_VAR(a);
	FREE_EXPECT_FAIL(delete a, .type = "alloc-dealloc-mismatch", .rw = "Free", .addr = a, .obj = a, .obj_size = 10, .cache = "new[]", .alloc_line = al);
	char *a2 = new char[10]; int a2l = __LINE__;
	OPTIMIZER_HIDE_VAR(a2);
	FREE_EXPECT_FAIL(free(a2), .type = "alloc-dealloc-mismatch", .rw = "Free", .addr = a2, .obj = a2, .obj_size = 10, .cache = "new[]", .alloc_line = a2l);
	/* Every object above was freed: a fresh round of the same sizes works. */
	int ok = 1;
	for (int i = 0; i < 1000; i++) {
		char *p = (char *)malloc(10), *q = new char[10];
		memset(p, 1, 10);
		memset(q, 2, 10);
		ok &= p[9] == 1 && q[9] == 2;
		free(p);
		delete[] q;
	}
	printf("ran on: heap %s\n", ok ? "intact" : "BROKEN");
}

int main()
{
	mismatches();
	return 0;
}
