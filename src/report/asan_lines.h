/* AddressSanitizer's report lines, for the tools that read ASan's log. */
#ifndef UKASAN_REPORT_ASAN_LINES_H
#define UKASAN_REPORT_ASAN_LINES_H

#include <stddef.h>
#include <stdint.h>

/* With the report lock held, at a report's end: when the log is the file
 * that ASAN_OPTIONS's log_path named, ASan's error line, access line,
 * frames and summary line after the kernel's text. bug: ASan's name for
 * it (dump_sanitizer_error's); pc 0: none known; write -1 or size 0: the
 * access is not known. */
void report_asan_lines(const char *bug, uintptr_t addr, uintptr_t pc, int write, size_t size,
                       const uintptr_t *pcs, int n);

#endif
