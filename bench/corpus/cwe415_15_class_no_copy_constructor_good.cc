/* CWE-415 Double Free: GOOD, the fixed twin of
 * cwe415_15_class_no_copy_constructor_bad.cc.
 * Bug there: a class owning a new[]'d buffer has no copy constructor; a
 * copy shares the buffer and both destructors delete[] it.
 * Fixed here: the class has a copy constructor that copies the buffer.
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
	Name(const Name &other)
	{
		data_ = new char[std::strlen(other.data_) + 1];
		std::strcpy(data_, other.data_);
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
