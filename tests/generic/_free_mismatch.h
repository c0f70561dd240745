/* For the free-path checks' tests (alloc-dealloc-mismatch,
 * new-delete-type-mismatch): the report is printed inside the free, before
 * the object's shadow becomes freed, so its memory rows are read before
 * the call, as C's KASAN_EXPECT_FAIL does, also in C++. Keep each use on
 * one line: the call trace names that line. */
#include "kasan_test.h"

#define FREE_EXPECT_FAIL(expression, ...)                                                          \
	do {                                                                                       \
		kasan_expect e_{__func__, __FILE__, __LINE__, __VA_ARGS__};                        \
		kasan_expect_report(&e_);                                                          \
		kasan_expect_report_end((uintptr_t)e_.addr);                                       \
		KASAN_BARRIER();                                                                   \
		expression;                                                                        \
		KASAN_BARRIER();                                                                   \
	} while (0)
