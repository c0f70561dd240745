/* CWE-416 Use After Free: BAD.
 * Bug: a virtual function is called through a pointer to a deleted object.
 * Good twin: cwe416_21_virtual_call_after_delete_good.cc
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

	delete s;
	area = s->area();
	std::printf("%d\n", area);
	return 0;
}
