/* CWE-415 Double Free: BAD.
 * Bug: a class owning a new[]'d buffer has no copy constructor; a copy
 * shares the buffer and both destructors delete[] it.
 * Good twin: cwe415_15_class_no_copy_constructor_good.cc
 */
#include <cstdio>
#include <cstring>

class Name {
public:
	explicit Name(const char *text)
	{
		data_ = new char[std::strlen(text) + 1];
		std::strcpy(data_, text);
	}
	Name &operator=(const Name &) = delete;
	~Name() { delete[] data_; }
	const char *c_str() const { return data_; }

private:
	char *data_;
};

int main()
{
	Name a("original");
	Name b(a);

	std::printf("%s %s\n", a.c_str(), b.c_str());
	return 0;
}
