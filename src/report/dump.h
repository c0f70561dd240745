/* The parts every report prints alike (the kernel's dump_stack): the task
 * line and the call trace, for KASAN, KFENCE and UBSAN reports. */
#ifndef UKASAN_REPORT_DUMP_H
#define UKASAN_REPORT_DUMP_H

#include <stdint.h>

/* "CPU: 0 UID: 1000 PID: 42 Comm: prog" */
void dump_task(int cpu, unsigned uid, int tid, const char *comm);
/* This thread's task line. */
void dump_this_task(void);
/* "Call Trace:", then the frames between <TASK> and </TASK>, each with its
 * pc (report_stack_pcs). exact: pcs[0] is a faulting pc, not a return
 * address. */
void dump_trace(const uintptr_t *pcs, int n, int exact);

/* The one line of AddressSanitizer's that names a bug, for the reports
 * whose kernel title no sanitizer-report reader knows (KFENCE, a fault,
 * a stack overflow): ClusterFuzz's parser takes its crash type from it,
 * in ASan's words, so that the same bug is of one type under either.
 * bug: ASan's name, or "double-free", "invalid-free", "SEGV". Not
 * printed when the report ends with ASan's lines (report_asan_lines),
 * which carry it: a reader that counts these lines counts a bug once. */
void dump_sanitizer_error(const char *bug, uintptr_t addr);

/* That line as ASan writes it, after prefix ("==PID==" in ASan's log),
 * with the pc of the access when known (not 0). */
void dump_sanitizer_error_line(const char *prefix, const char *bug, uintptr_t addr, uintptr_t pc);

/* For a stack whose kernel-form frames ClusterFuzz's parser cannot read
 * (report_sanitizer_stack_needed: a C++ program's), the same stack in
 * AddressSanitizer's form, which it reads, after ASan's error line for bug
 * when bug is not NULL; nothing otherwise. Before the kernel's trace: the
 * parser takes the first frames it reads. */
void dump_sanitizer_stack(const char *bug, uintptr_t addr, const uintptr_t *pcs, int n, int exact);

#endif
