/* Shared by the unwinder test's parts, each compiled differently. */
#ifndef UNWIND_TEST_H
#define UNWIND_TEST_H

#include <setjmp.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef void (*leaf_fn)(void);

/* Calls the function named by plan[0] (which calls dispatch(plan + 1)), or
 * leaf at the end of the plan. */
void dispatch(const char *plan, leaf_fn leaf);
/* For signal frames: what the handler continues with. */
void arm_signal(const char *plan, leaf_fn leaf);
void touch(char *p);
extern volatile int sink;
extern int *volatile null_ptr;
/* Where a fault handler returns to: nested faults save the outer one. */
extern __thread sigjmp_buf *fault_env;

#ifdef __cplusplus
}
#endif
#endif
