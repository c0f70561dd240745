/* The parts every report prints alike (the kernel's dump_stack): the task
 * line and the call trace, for KASAN, KFENCE and UBSAN reports. */
#ifndef UKASAN_STACK_DUMP_H
#define UKASAN_STACK_DUMP_H

#include <stdint.h>

/* "CPU: 0 UID: 1000 PID: 42 Comm: prog" */
void dump_task(int cpu, unsigned uid, int tid, const char *comm);
/* This thread's task line. */
void dump_this_task(void);
/* "Call Trace:", then the frames between <TASK> and </TASK>. exact: pcs[0]
 * is a faulting pc, not a return address. */
void dump_trace(const uintptr_t *pcs, int n, int exact);

#endif
