/* Between the shared report code and the mode's part of it. */
#ifndef UKASAN_KASAN_REPORT_H
#define UKASAN_KASAN_REPORT_H

#include <stddef.h>
#include <stdint.h>

#include "../stack/stack.h"

/* 0 when no report may start now: one is in progress on this thread, or
 * one was printed and kasan_multi_shot is off. */
int kasan_report_enter(void);
void kasan_report_leave(void);

/* Shared by the modes' parts. */
void kasan_print_track(const char *what, uint32_t tid, depot_handle_t h);
void kasan_describe_object(uintptr_t addr, uintptr_t obj, size_t size, int api, int large,
                           int freed);

/* The mode's: */
int kasan_has_metadata(uintptr_t addr);
uintptr_t kasan_first_bad(uintptr_t addr, size_t size);
const char *kasan_bug_type(uintptr_t addr, size_t size, uintptr_t bad);
/* Prints the frame addr is in, if it is on this thread's stack: 1 if so. */
int kasan_describe_stack(uintptr_t addr);
/* An address in a fake stack frame (fake_stack.c): 0 when it is not. */
int kasan_describe_fake_frame(uintptr_t addr);
/* "belongs to stack of task", and the frame's objects when frame (its base,
 * with the compiler's magic and description) is known. */
void kasan_describe_frame(const char *comm, int tid, uintptr_t addr, const uintptr_t *frame);
void kasan_print_memory_state(uintptr_t bad);

#endif
