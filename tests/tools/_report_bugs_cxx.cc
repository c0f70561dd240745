/* _report_bugs.c's planted bugs in C++: each bug a member of a class in a
 * namespace, called from a function template, from a function in the
 * namespace (app::Bugs::heap_oob, app::level2<int>, app::level1), so that
 * every frame ClusterFuzz's parser must read has a C++ name. For
 * check_clusterfuzz.py, built with ukasan-c++, run under the preload with
 * KFENCE, and built with clang's AddressSanitizer for comparison. */
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#define NOINLINE __attribute__((noinline))

char *volatile sink;
volatile int zero;
void *volatile kept;

namespace app {

static char global_buf[16];

/* KFENCE places an object at its page's start or end, at random: the
 * access goes past whichever side has the guard page. */
static NOINLINE char *past(char *p, size_t size)
{
	return ((uintptr_t)p & 4095) ? p + size + zero : p - 1 + zero;
}

struct Bugs {
	static NOINLINE void heap_oob()
	{
		char *p = static_cast<char *>(malloc(32));
		sink = past(p, 32);
		*sink = 1;
		free(p);
	}
	static NOINLINE void oob_read()
	{
		char *p = static_cast<char *>(malloc(32));
		sink = past(p, 32);
		zero = *sink;
		free(p);
	}
	static NOINLINE void stack_oob()
	{
		char buf[16];
		sink = buf;
		sink[16 + zero] = 1;
	}
	static NOINLINE void global_oob()
	{
		sink = global_buf;
		sink[16 + zero] = 1;
	}
	static NOINLINE void uaf()
	{
		char *p = static_cast<char *>(malloc(24));
		sink = p;
		free(p);
		sink[3 + zero] = 1;
	}
	static NOINLINE void uaf_read()
	{
		char *p = static_cast<char *>(malloc(24));
		sink = p;
		free(p);
		zero = sink[3];
	}
	static NOINLINE void double_free()
	{
		char *p = static_cast<char *>(malloc(24));
		sink = p;
		free(p);
		free(sink);
	}
	static NOINLINE void invalid_free()
	{
		char *p = static_cast<char *>(malloc(24));
		sink = p + 8;
		free(sink);
		free(p);
	}
	static NOINLINE void overlap()
	{
		char *p = static_cast<char *>(malloc(32));
		sink = p;
		memcpy(sink + 4, sink, 16 + zero);
		free(p);
	}
	static NOINLINE void wild_read()
	{
		sink = (char *)0x10000 + zero;
		zero = sink[0];
	}
	static NOINLINE void corruption()
	{
		char *p = static_cast<char *>(malloc(24));
		sink = p;
		sink[24 + zero] = 1;
		free(p);
	}
	/* Past the array but inside the struct: UBSAN's bounds check alone
	 * sees it. */
	static NOINLINE void array_index()
	{
		struct {
			int a[4];
			int after;
		} s;
		int i = 4 + zero;
		s.a[i] = 1;
		sink = (char *)&s;
	}
	static NOINLINE void leak()
	{
		kept = malloc(40);
		strcpy((char *)kept, "lost");
		kept = 0;
	}
};

template <typename T> NOINLINE void level2(void (*fn)())
{
	fn();
	sink = 0;
}

NOINLINE void level1(void (*fn)())
{
	level2<int>(fn);
	sink = 0;
}

} // namespace app

static const struct {
	const char *name;
	void (*fn)();
} bugs[] = {
    {"heap_oob", app::Bugs::heap_oob},         {"oob_read", app::Bugs::oob_read},
    {"stack_oob", app::Bugs::stack_oob},       {"global_oob", app::Bugs::global_oob},
    {"uaf", app::Bugs::uaf},                   {"uaf_read", app::Bugs::uaf_read},
    {"double_free", app::Bugs::double_free},   {"invalid_free", app::Bugs::invalid_free},
    {"overlap", app::Bugs::overlap},           {"wild_read", app::Bugs::wild_read},
    {"corruption", app::Bugs::corruption},     {"array_index", app::Bugs::array_index},
    {"leak", app::Bugs::leak},
};

int main(int argc, char **argv)
{
	for (size_t i = 0; argc > 1 && i < sizeof(bugs) / sizeof(bugs[0]); i++)
		if (!strcmp(argv[1], bugs[i].name)) {
			app::level1(bugs[i].fn);
			return 0;
		}
	fprintf(stderr, "usage: %s BUG\n", argv[0]);
	return 2;
}
