/* CWE-122 Heap-based Buffer Overflow: GOOD, the fixed twin of
 * cwe122_46_placement_new_malloc_bad.cc.
 * Bug there: placement new constructs an 8-byte object in 4 bytes from
 * malloc.
 * Fixed here: malloc(sizeof the class).
 */
#include <cstdio>
#include <cstdlib>
#include <new>

class TwoInts {
public:
	TwoInts(int a, int b) : a_(a), b_(b) {}
	int sum() const { return a_ + b_; }
private:
	int a_;
	int b_;
};

int main()
{
	void *memory = std::malloc(sizeof(TwoInts));

	if (memory == nullptr)
		return 1;
	TwoInts *p = new (memory) TwoInts(1, 2);
	std::printf("%d\n", p->sum());
	p->~TwoInts();
	std::free(memory);
	return 0;
}
