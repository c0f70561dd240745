/* Generic KASAN: checks called by instrumented code, and its reports. */
#ifndef UKASAN_GENERIC_KASAN_H
#define UKASAN_GENERIC_KASAN_H

#include <stddef.h>
#include <stdint.h>

#include "../core/common.h"

/* Set at initialisation when the program was built with ukasan-cc. */
extern int kasan_enabled;

void kasan_init(void);
int kasan_current_tid(void);

/* Check [addr, addr+size) and report at most once per call; 0 when bad. */
int kasan_check_range(uintptr_t addr, size_t size, int write, uintptr_t ip);

void kasan_report(uintptr_t addr, size_t size, int write, uintptr_t ip);
/* The same, for checks whose frames are not all in libukasan.so: the stack
 * starts at ip, the access. */
void kasan_report_from(uintptr_t addr, size_t size, int write, uintptr_t ip);
/* An invalid free; known_chunk: addr is the start of an object that is
 * already free (a double free). */
void kasan_report_free(uintptr_t addr, int known_chunk, uintptr_t ip);

void kasan_report_wild_fault(uintptr_t shadow_addr, uintptr_t pc);

/* Registered globals, for "The buggy address belongs to the variable". */
struct asan_global {
	uintptr_t beg;
	size_t size;
	size_t size_with_redzone;
	const char *name;
	const char *module_name;
	uintptr_t has_dynamic_init;
	const struct asan_global_location {
		const char *file;
		int line, column;
	} *location;
	uintptr_t odr_indicator;
};
const struct asan_global *kasan_find_global(uintptr_t addr);

#endif
