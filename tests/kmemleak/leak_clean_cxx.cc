// MODE: generic
// Clean twin in C++: iostream, strings, containers, and exceptions thrown
// and caught leave no unreferenced object.
// NOT: memory leak
// NOT: BUG:
// STDOUT: caught 42
#include <iostream>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

static std::map<std::string, std::vector<int>> table;
static std::unique_ptr<std::string> owned;

int main()
{
	table["a long key that is not in the small string buffer"].push_back(1);
	owned.reset(new std::string(200, 'x'));
	try {
		throw std::runtime_error("a message long enough to be allocated on the heap");
	} catch (const std::exception &) {
		std::cout << "caught " << 42 << std::endl;
	}
	std::cerr << "to stderr\n";
	return 0;
}
