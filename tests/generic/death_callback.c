// MODE: generic
// RUN: kasan.fault=panic
// ASan's death callback runs once, after the report and before the abort:
// libFuzzer saves the crashing input there.
// STATUS: signal SIGABRT
// EXPECT: BUG: KASAN: slab-out-of-bounds in death_callback+0x
// EXPECT: ukasan: kasan.fault=panic set, aborting
// EXPECT: the death callback ran
// COUNT: 1 the death callback ran
#include "kasan_test.h"

#include <sanitizer/common_interface_defs.h>

static void on_death(void)
{
	static const char msg[] = "the death callback ran\n";
	write(2, msg, sizeof(msg) - 1);
}

KASAN_TEST void death_callback(void)
{
	char *a = malloc(16);

	OPTIMIZER_HIDE_VAR(a);
	kasan_int_result = ((volatile char *)a)[16];
	free(a);
}

int main(void)
{
	__sanitizer_set_death_callback(on_death);
	death_callback();
	return 0;
}
