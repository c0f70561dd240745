/* The log: a small formatter of our own, so that the fault path never
 * enters stdio or malloc, and the "ukasan:" lines every layer writes
 * (warnings). A line goes out through the writer report/ registers when it
 * sets up its sinks (report/sink.c), or to fd 2 before that: so the layers
 * below report/ (options, the shadow, the symbolizer) warn without calling
 * up into it. */
#ifndef UKASAN_CONFIG_LOG_H
#define UKASAN_CONFIG_LOG_H

#include <stdarg.h>
#include <stddef.h>

/* Supports %s %c %d %i %u %x %p with l/ll/z modifiers, width, '0' and '-'. */
size_t fmt_vbuf(char *buf, size_t cap, const char *fmt, va_list ap);
size_t fmt_buf(char *buf, size_t cap, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* ns since 1970 as RFC 3339, UTC, to the microsecond. */
void fmt_time(char *buf, size_t cap, unsigned long long ns);

/* One line to the log, unbuffered; for warnings. */
void log_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* A line of ukasan's own, already formatted: to the writer set, else to
 * fd 2 while it is open. Never allocates, never blocks. */
void log_write(const char *buf, size_t len);
/* Where log_write's lines go from now on (report/'s sinks); set once, at
 * start, before any thread of the program's could write. */
typedef void log_writer_fn(const char *buf, size_t len);
void log_set_writer(log_writer_fn *fn);

#endif
