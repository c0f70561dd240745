/* CWE-121 Stack-based Buffer Overflow: GOOD, the fixed twin of
 * cwe121_43_placement_new_declare_bad.cc.
 * Bug there: placement new constructs an 8-byte object in a 4-byte stack
 * buffer.
 * Fixed here: the buffer is sizeof the class and aligned for it.
 */
#include <cstdio>
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
	alignas(TwoInts) char buffer[sizeof(TwoInts)];
	TwoInts *p = new (buffer) TwoInts(1, 2);

	std::printf("%d\n", p->sum());
	p->~TwoInts();
	return 0;
}
