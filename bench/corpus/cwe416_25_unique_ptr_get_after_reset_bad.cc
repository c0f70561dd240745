/* CWE-416 Use After Free: BAD.
 * Bug: a raw pointer from unique_ptr::get() is written after reset()
 * deleted the object.
 * Good twin: cwe416_25_unique_ptr_get_after_reset_good.cc
 */
#include <cstdio>
#include <memory>

struct Config {
	int level = 1;
};

int main()
{
	std::unique_ptr<Config> owner(new Config);
	Config *raw = owner.get();

	owner.reset();
	raw->level = 2;
	std::printf("%d\n", owner ? 1 : 0);
	return 0;
}
