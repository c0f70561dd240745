/* The printf and scanf families' formats, read as glibc reads them, to learn
 * what each call reads and writes through its arguments. */
#ifndef UKASAN_INTERCEPTORS_FORMAT_H
#define UKASAN_INTERCEPTORS_FORMAT_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "intercept.h"

/* The format's characters: char, or wchar_t for the wide families. */
enum fmt_chars { FMT_NARROW, FMT_WIDE };

/* A string of chars or wchar_t, its terminator included, read by the call
 * (a format, sscanf's input). 0 when bad (reported, as made from ip). */
HIDDEN int fmt_check_string(const void *s, int wide, uintptr_t ip);

/* Before a printf-family call: the format, each %s string (its terminator,
 * or as far as the precision lets the call read), each %n target. A bad
 * string is reported and the call goes on (ASan's recovery: the output
 * appears); 0 at the first bad %n target (reported): the call must then be
 * skipped. ap is va_copy'd, not consumed. */
HIDDEN int fmt_check_printf(const void *fmt, int wide, va_list ap, uintptr_t ip);

/* A call skipped for a bad argument fails with EFAULT: returns -1. */
HIDDEN int fmt_fail(void);
/* The same for a fortified one given a buffer of n, of dlen by the
 * compiler's count: past it, glibc's verdict, which it gives before
 * reading an argument (abort). */
HIDDEN int fmt_fail_chk(size_t n, size_t dlen);

/* After a scanf-family call that returned ret: the objects of the
 * conversions it assigned, each reported where bad. gnu_a: the old GNU %as
 * (allocating) is understood, as by the non-C99 entry points. */
HIDDEN void fmt_check_scanf(const void *fmt, int wide, int gnu_a, int ret, va_list ap,
                            uintptr_t ip);

#endif
