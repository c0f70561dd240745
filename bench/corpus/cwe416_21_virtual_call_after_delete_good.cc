/* CWE-416 Use After Free: GOOD, the fixed twin of
 * cwe416_21_virtual_call_after_delete_bad.cc.
 * Bug there: a virtual function is called through a pointer to a deleted
 * object.
 * Fixed here: the call happens before delete.
 */
#include <cstdio>

struct Shape {
	virtual ~Shape() {}
	virtual int area() const = 0;
};

struct Square : Shape {
	explicit Square(int s) : side(s) {}
	int area() const override { return side * side; }
	int side;
};

static Shape *make(int s)
{
	return new Square(s);
}

int main()
{
	Shape *s = make(3);
	int area;

	area = s->area();
	delete s;
	std::printf("%d\n", area);
	return 0;
}
