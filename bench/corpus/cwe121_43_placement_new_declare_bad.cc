/* CWE-121 Stack-based Buffer Overflow: BAD.
 * Bug: placement new constructs an 8-byte object in a 4-byte stack buffer.
 * Good twin: cwe121_43_placement_new_declare_good.cc
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
	alignas(TwoInts) char buffer[sizeof(int)];
	TwoInts *p = new (buffer) TwoInts(1, 2);

	std::printf("%d\n", p->sum());
	p->~TwoInts();
	return 0;
}
