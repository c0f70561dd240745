// MODE: generic
// RUN: kasan_multi_shot
// CFLAGS: -fsized-deallocation
// ASan's new-delete-type-mismatch (on by default): a sized delete whose
// size is not the object's (a base class without a virtual destructor,
// and the operators called directly), and an aligned delete whose
// alignment is not the allocation's (or an aligned new's object freed by
// the plain delete, and the other way round). Reported in the caller with
// both sizes or alignments, the object and its allocation stack; then the
// object is freed and the program runs on.
// EXPECT: BUG: KASAN: new-delete-type-mismatch in type_mismatches+0x
// EXPECT: Object passed to operator delete has wrong type: size of the allocated type 40 bytes, of the deallocated type 8 bytes
// EXPECT: which belongs to the cache new of size 40
// EXPECT: Object passed to operator delete has wrong type: size of the allocated type 8 bytes, of the deallocated type 3 bytes
// EXPECT: Object passed to operator delete [] has wrong type: size of the allocated type 7 bytes, of the deallocated type 5 bytes
// EXPECT: which belongs to the cache new[] of size 7
// EXPECT: Object passed to operator delete has wrong type: alignment of the allocated type 64 bytes, of the deallocated type default-aligned
// EXPECT: Object passed to operator delete has wrong type: alignment of the allocated type default-aligned, of the deallocated type 32 bytes
// EXPECT: Object passed to operator delete [] has wrong type: alignment of the allocated type 128 bytes, of the deallocated type 64 bytes
// COUNT: 6 BUG: KASAN: new-delete-type-mismatch in type_mismatches+0x
// COUNT: 6 BUG: KASAN:
// STDOUT: ran on: 7
#include <new>

#include "_free_mismatch.h"

struct Base {
	long a;
};
struct Derived : Base {
	long b[4];
};

extern "C" KASAN_TEST void type_mismatches(void)
{
	Base *b = new Derived(); int bl = __LINE__;
	OPTIMIZER_HIDE_VAR(b);
	FREE_EXPECT_FAIL(delete b, .type = "new-delete-type-mismatch", .rw = "Free", .addr = b, .obj = b, .obj_size = sizeof(Derived), .cache = "new", .alloc_line = bl);
	void *p = ::operator new(8); int pl = __LINE__;
	OPTIMIZER_HIDE_VAR(p);
	FREE_EXPECT_FAIL(::operator delete(p, 3), .type = "new-delete-type-mismatch", .rw = "Free", .addr = p, .obj = p, .obj_size = 8, .cache = "new", .alloc_line = pl);
	void *q = ::operator new[](7); int ql = __LINE__;
	OPTIMIZER_HIDE_VAR(q);
	FREE_EXPECT_FAIL(::operator delete[](q, 5), .type = "new-delete-type-mismatch", .rw = "Free", .addr = q, .obj = q, .obj_size = 7, .cache = "new[]", .alloc_line = ql);
	void *r = ::operator new(64, std::align_val_t(64)); int rl = __LINE__;
	OPTIMIZER_HIDE_VAR(r);
	FREE_EXPECT_FAIL(::operator delete(r), .type = "new-delete-type-mismatch", .rw = "Free", .addr = r, .obj = r, .obj_size = 64, .cache = "new", .alloc_line = rl);
	void *s = ::operator new(16); int sl = __LINE__;
	OPTIMIZER_HIDE_VAR(s);
	FREE_EXPECT_FAIL(::operator delete(s, std::align_val_t(32)), .type = "new-delete-type-mismatch", .rw = "Free", .addr = s, .obj = s, .obj_size = 16, .cache = "new", .alloc_line = sl);
	void *t = ::operator new[](200, std::align_val_t(128)); int tl = __LINE__;
	OPTIMIZER_HIDE_VAR(t);
	FREE_EXPECT_FAIL(::operator delete[](t, std::align_val_t(64)), .type = "new-delete-type-mismatch", .rw = "Free", .addr = t, .obj = t, .obj_size = 200, .cache = "new[]", .alloc_line = tl);
	long *l = new long(7);
	printf("ran on: %ld\n", *l);
	delete l;
}

int main()
{
	type_mismatches();
	return 0;
}
