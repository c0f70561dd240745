// MODE: generic
// TAG-MODES: sw_tags hw_tags
// Clean twin in C++: iostream, strings, containers, exceptions thrown and
// caught (the emergency pool), locales, std::thread with thread_local
// strings, and std::regex leave no unreferenced object.
// NOT: memory leak
// NOT: BUG:
// STDOUT: caught 42
#include <iomanip>
#include <iostream>
#include <locale>
#include <regex>
#include <sstream>
#include <thread>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

static std::map<std::string, std::vector<int>> table;
static std::unique_ptr<std::string> owned;
static thread_local std::string per_thread;

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
	std::ostringstream o;
	o << std::setprecision(10) << 3.5 << " " << 1e100;
	std::cerr << o.str() << "\n";
	try {
		std::locale loc("C.UTF-8");
		std::cerr.imbue(loc);
		std::cerr << 1234567 << "\n";
	} catch (const std::exception &) {
	}
	std::vector<std::thread> ts;
	for (int i = 0; i < 4; i++)
		ts.emplace_back([i] { per_thread = std::string(100, (char)('a' + i)); });
	for (auto &t : ts)
		t.join();
	std::regex r("a+b*");
	std::cerr << std::regex_match("aab", r) << "\n";
	return 0;
}
