// C++ frames with exception tables (CIE augmentation "zPLR"), handlers and
// cleanups run during unwinding (in .cold parts with FDEs of their own).
#include <stdexcept>

#include "_unwind_test.h"

namespace
{

struct Guard {
	const char *plan;
	leaf_fn leaf;
	bool on_unwind;
	~Guard()
	{
		if (on_unwind)
			dispatch(plan, leaf);
		sink++;
	}
};

__attribute__((noinline)) void thrower()
{
	if (sink != 0x7fffffff)
		throw std::runtime_error("x");
}

} // namespace

extern "C" {

// A destructor to run on the way out: the frame has an LSDA.
__attribute__((noinline)) void cxx_dtor(const char *plan, leaf_fn leaf)
{
	Guard g{plan, leaf, false};
	dispatch(plan + 1, leaf);
}

__attribute__((noinline)) void cxx_try(const char *plan, leaf_fn leaf)
{
	try {
		dispatch(plan + 1, leaf);
		if (sink == 0x7ffffffe)
			thrower();
	} catch (const std::exception &) {
		sink++;
	}
	sink++;
}

// The rest of the plan runs inside a catch block.
__attribute__((noinline)) void cxx_catch(const char *plan, leaf_fn leaf)
{
	try {
		thrower();
	} catch (const std::exception &) {
		dispatch(plan + 1, leaf);
	}
	sink++;
}

// The rest of the plan runs in a destructor called from a landing pad.
__attribute__((noinline)) void cxx_cleanup(const char *plan, leaf_fn leaf)
{
	try {
		Guard g{plan + 1, leaf, true};
		thrower();
	} catch (...) {
		sink++;
	}
}
}
