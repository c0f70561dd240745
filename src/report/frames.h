/* A report's stacks as its text shows them: the kernel's frames
 * ("func+0x1c/0x60 file.c:12"), and AddressSanitizer's ("#0 0x... in func
 * file.c:12") for the readers that know only those. */
#ifndef UKASAN_REPORT_FRAMES_H
#define UKASAN_REPORT_FRAMES_H

#include <stddef.h>
#include <stdint.h>

/* Frames of a stack that reports symbolize and show, at most. */
#define FRAMES_MAX 64

/* A stack through report_printf, one " frame\n" line each. first_exact:
 * pcs[0] is a faulting pc, not a return address. */
void report_stack(const uintptr_t *pcs, int n, int first_exact);
/* The same, each frame after indent and "[<pc>] ", as kernels before 4.14
 * printed a call trace and kmemleak still prints its backtrace: the line
 * ClusterFuzz's parser takes a kernel frame from, and syzkaller's too. */
void report_stack_pcs(const uintptr_t *pcs, int n, int first_exact, const char *indent);

/* Whether ClusterFuzz's parser would miss a named frame of the stack in
 * its kernel form: its pattern takes a function as a word before "+0x",
 * which a C++ name ("ns::K::get(int)") or a compiler's clone ("f.cold")
 * is not, and a report of such a stack was grouped under no frame at all.
 */
int report_sanitizer_stack_needed(const uintptr_t *pcs, int n, int first_exact);
/* That stack as AddressSanitizer prints it ("    #0 0x... in ns::K::get(int)
 * file.cc:12", or "(module+0x...)" without a line), which that parser
 * reads whatever the names. */
void report_sanitizer_stack(const uintptr_t *pcs, int n, int first_exact);

/* The function of a frame as the kernel's frames show it
 * ("func+0x1c/0x60"); 0, buf "", when pc is in no symbol. */
int report_frame_name(uintptr_t pc, int exact, char *buf, size_t cap);
/* A frame in parts, for the JSON line, from the same symbols: the real
 * function's (inl < 0) or the inl-th function inlined at pc, innermost
 * first; 0 when pc is in no module (or there is no such function). */
struct sym_info;
int report_frame_info(uintptr_t pc, int exact, int inl, struct sym_info *out);
/* The one place a report computes a frame's module and offset: the
 * module's path (NULL: pc is in none) and pc's offset from its load
 * bias. */
const char *report_frame_module(uintptr_t pc, uintptr_t *offset);

/* A new report begins: the frames symbolized for the last are forgotten
 * (objects may have come and gone since). */
void report_frames_forget(void);

#endif
