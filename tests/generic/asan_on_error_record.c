// MODE: generic
// The program's __asan_on_error runs once the report's record is filled,
// before it is printed (as ASan's does): from it, __asan_report_present
// and __asan_get_report_* describe this report (ASan's debug_report test).
// It ran at the start, with nothing to read.
// STATUS: 1
// EXPECT: on_error: present 1, write 1, size 1, address right: yes, slab-out-of-bounds
// EXPECT: BUG: KASAN: slab-out-of-bounds in asan_on_error_record+0x
#include "kasan_test.h"

#include <sanitizer/asan_interface.h>

static char *volatile target;

void __asan_on_error(void)
{
	int present = __asan_report_present();
	void *addr = __asan_get_report_address();
	const char *d = __asan_get_report_description();
	fprintf(stderr, "on_error: present %d, write %d, size %zu, address right: %s, %s\n", present,
	        __asan_get_report_access_type(), __asan_get_report_access_size(),
	        addr == target + 16 ? "yes" : "no", d ? d : "(null)");
}

KASAN_TEST void asan_on_error_record(void)
{
	char *a = malloc(16);
	target = a;
	OPTIMIZER_HIDE_VAR(a);
	((volatile char *)a)[16] = 1;
	free(a);
}

int main(void)
{
	asan_on_error_record();
	return 0;
}
