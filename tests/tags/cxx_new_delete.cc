// MODE: sw_tags
// VARIANTS: gcc clang
// RUN: kasan_multi_shot
// HWASAN: caught caught clean -- new/delete objects are tagged like malloc's; exceptions are fine
// C++: a read one granule past a new[]'ed array, and a read of a deleted
// object, are reported (in main, with new's and delete's stacks); and a
// hundred exceptions thrown through frames with tagged locals (clang
// retags them on unwinding through __hwasan_personality_wrapper) leave no
// false report behind. Static expectations only: tags_test.h is C.
// EXPECT: BUG: KASAN: slab-out-of-bounds in main+0x
// EXPECT: Read of size 4 at addr
// EXPECT: BUG: KASAN: slab-use-after-free in main+0x
// EXPECT: Freed by task
// EXPECT: freed 40-byte region
// STDOUT: thrown 100
// COUNT: 2 BUG: KASAN:
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>

struct S {
	int a[10];
};

static int tags_case, tags_only, tags_from;

/* As tags_test.h's TAGS_CASE, for C++ (see there). */
static bool case_runs()
{
	tags_case++;
	if (tags_from) {
		if (tags_case < tags_from)
			return false;
		fprintf(stderr, "tags: case %d\n", tags_case);
		return true;
	}
	return !tags_only || tags_only == tags_case;
}

__attribute__((noinline)) static int thrower(int x)
{
	std::string s(100, 'x');
	char buf[40];
	memset(buf, x, sizeof(buf));
	if (x)
		throw std::runtime_error(s);
	return buf[3];
}

int main(int argc, char **argv)
{
	if (argc > 2 && !strcmp(argv[1], "one"))
		tags_only = atoi(argv[2]);
	if (argc > 2 && !strcmp(argv[1], "from"))
		tags_from = atoi(argv[2]);
	volatile int i = 8;
	if (case_runs()) {
		int *arr = new int[4];
		volatile int v = arr[i]; /* 32 bytes in: past the 16-byte array's granule */
		(void)v;
		delete[] arr;
	}
	if (case_runs()) {
		S *s = new S;
		delete s;
		volatile int v = s->a[3];
		(void)v;
	}
	if (case_runs()) {
		int thrown = 0;
		for (int k = 0; k < 100; k++) {
			try {
				thrower(1);
			} catch (std::exception &e) {
				thrown += e.what()[0] == 'x';
			}
		}
		printf("thrown %d\n", thrown);
	}
	return 0;
}
