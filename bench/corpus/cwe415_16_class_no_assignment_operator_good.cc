/* CWE-415 Double Free: GOOD, the fixed twin of
 * cwe415_16_class_no_assignment_operator_bad.cc.
 * Bug there: a class owning a new'd int has no assignment operator; after
 * assignment both objects delete the same int.
 * Fixed here: the class has an assignment operator that copies the value.
 */
#include <cstdio>

class Counter {
public:
	explicit Counter(int v) : value_(new int(v)) {}
	Counter(const Counter &other) : value_(new int(*other.value_)) {}
	Counter &operator=(const Counter &other)
	{
		if (this != &other)
			*value_ = *other.value_;
		return *this;
	}
	~Counter() { delete value_; }
	int get() const { return *value_; }

private:
	int *value_;
};

int main()
{
	Counter a(1);
	{
		Counter b(2);
		b = a;
		std::printf("%d %d\n", a.get(), b.get());
	}
	return 0;
}
