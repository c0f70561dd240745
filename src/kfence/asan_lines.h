/* AddressSanitizer's report lines, for the tools that read ASan's log. */
#ifndef UKASAN_KFENCE_ASAN_LINES_H
#define UKASAN_KFENCE_ASAN_LINES_H

#include <stdint.h>

/* With the report lock held, at a report's end: when the log is the file
 * that ASAN_OPTIONS's log_path named, ASan's error line and frames after
 * the kernel's text. pc 0: none known. */
void report_asan_lines(const char *tool, const char *bug, uintptr_t addr, uintptr_t pc,
                       const uintptr_t *pcs, int n);

#endif
