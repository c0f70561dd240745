/* Another process, held still and read from outside, for `ukasan leaks
 * PID` (src/leaks/): every thread stopped by ptrace (PTRACE_SEIZE and
 * PTRACE_INTERRUPT: no signal is sent, none of the program's is taken, and
 * a seccomp filter of the program's does not apply to us), its registers,
 * and its memory read and written. Used by the tool, never by the runtime
 * inside a program. */
#ifndef UKASAN_PLATFORM_REMOTE_H
#define UKASAN_PLATFORM_REMOTE_H

#include <stddef.h>
#include <stdint.h>

#include "threads.h"

/* Attaches to every thread of pid and stops it, filling out (up to max):
 * the count, or -1 with errno set (ESRCH: no such process; EPERM: not
 * permitted). remote_resume must follow, whatever the result. */
long remote_stop(int pid, struct os_thread *out, size_t max);
/* Lets every stopped thread go (detached), with any signal that arrived
 * while stopping given back to it. */
void remote_resume(void);
/* Reads len bytes at addr of the stopped process: 0, or -1 when any part
 * is unreadable. */
int remote_read(void *dst, uintptr_t addr, size_t len);
/* Writes len bytes at addr: 0, or -1. */
int remote_write(uintptr_t addr, const void *src, size_t len);

#endif
