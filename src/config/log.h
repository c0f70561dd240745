/* The log: a small formatter of our own, so that the fault path never
 * enters stdio or malloc, and the lines every layer writes (warnings)
 * through the sinks (sink.c), which reports (report/) write to as well. */
#ifndef UKASAN_CONFIG_LOG_H
#define UKASAN_CONFIG_LOG_H

#include <stdarg.h>
#include <stddef.h>

/* Supports %s %c %d %i %u %x %p with l/ll/z modifiers, width, '0' and '-'. */
size_t fmt_vbuf(char *buf, size_t cap, const char *fmt, va_list ap);
size_t fmt_buf(char *buf, size_t cap, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* ns since 1970 as RFC 3339, UTC, to the microsecond. */
void fmt_time(char *buf, size_t cap, unsigned long long ns);

/* Choose where reports go: a path gets ".PID" appended, as ASan's log_path;
 * the file is created at the first line written (sink.c). */
void log_set_path(const char *path);
/* ukasan.json_path: the JSON lines' own file, named as the log's. */
void log_set_json_path(const char *path);
/* Keep a copy of stderr, for reports after the program closes it. */
void log_init(void);
/* After fork the child's lines go to a file of its own pid. */
void log_after_fork(void);
/* Open what the log needs now, while the program may still open files
 * (before a seccomp filter), or find its files (before a chroot). */
void log_prepare_sandbox(void);
void log_prepare_chroot(void);
/* The program closed descriptors lo..hi, or put something of its own at
 * fd, through libc: ukasan's there are gone, and fd 2 closed or set. */
void log_fds_closed(int lo, int hi);
void log_fd_replaced(int fd);

/* One line to the log, unbuffered; for warnings. */
void log_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Bug reports a socket sink dropped in this process: its receiver was not
 * reading (sink.c). */
unsigned long reports_dropped_here(void);

#endif
