// MODE: generic
// CFLAGS: -fsized-deallocation
// The clean twin of alloc_dealloc_mismatch.cc and
// new_delete_type_mismatch.cc: every family freed by its own (malloc,
// calloc, realloc, strdup, posix_memalign by free; new by delete; new[] by
// delete[]), sized and aligned deletes naming the object's size and
// alignment, a virtual destructor's sized delete of a derived object, and
// the standard containers: no report.
// NOT: BUG:
// STDOUT: clean: 42
#include <stdlib.h>
#include <string.h>

#include <map>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include "kasan_test.h"

struct Base {
	long a;
	virtual ~Base() {}
};
struct Derived : Base {
	long b[4];
};
struct alignas(64) Wide {
	char c[100];
};

extern "C" KASAN_TEST void clean(void)
{
	void *volatile p;
	p = malloc(10);
	free(p);
	p = calloc(3, 4);
	free(p);
	p = realloc(NULL, 20);
	p = realloc(p, 40);
	free(p);
	p = strdup("hello");
	free(p);
	void *q;
	if (posix_memalign(&q, 64, 100) == 0)
		free(q);
	p = aligned_alloc(32, 64);
	free(p);
	p = ::operator new(8);
	::operator delete(p, 8);
	p = ::operator new[](7);
	::operator delete[](p, 7);
	p = ::operator new(64, std::align_val_t(64));
	::operator delete(p, std::align_val_t(64));
	p = ::operator new(100, std::align_val_t(128));
	::operator delete(p, 100, std::align_val_t(128));
	p = ::operator new[](10, std::nothrow);
	::operator delete[](p, std::nothrow);
	Base *b = new Derived();
	OPTIMIZER_HIDE_VAR(b);
	delete b;
	Wide *w = new Wide();
	OPTIMIZER_HIDE_VAR(w);
	delete w;
	Wide *wa = new Wide[3];
	OPTIMIZER_HIDE_VAR(wa);
	delete[] wa;
	std::string *s = new std::string[4];
	OPTIMIZER_HIDE_VAR(s);
	delete[] s;
	std::vector<std::string> v;
	std::map<int, std::string> m;
	for (int i = 0; i < 100; i++) {
		v.push_back(std::string(i, 'x'));
		m[i] = v.back();
	}
	std::unique_ptr<int[]> u(new int[5]());
	std::shared_ptr<Base> sp = std::make_shared<Derived>();
	printf("clean: %d\n", (int)(v[42].size() + u[1]));
}

int main()
{
	clean();
	return 0;
}
