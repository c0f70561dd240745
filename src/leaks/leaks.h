/* `ukasan leaks PID` (main.c): the running process's modules, for its
 * frames and for finding its runtime (modules.c), and the heaps read from
 * it (track.c, generic.c), their objects kept in objects.c. */
#ifndef UKASAN_LEAKS_LEAKS_H
#define UKASAN_LEAKS_LEAKS_H

#include <stddef.h>
#include <stdint.h>

struct leak_heap;
struct leak_remote;

/* Reads /proc/PID/maps: 0, or -1 with errno set. */
int modules_read(int pid);
/* The address of the exported symbol name in the first module that
 * defines it (its path in *path), or 0. */
uintptr_t modules_symbol(const char *name, const char **path);
/* "    [<pc>] 0xPC [NAME+0xOFF]": the form `ukasan symbolize` completes. */
void modules_print_frame(uintptr_t pc, const char *indent);

/* The preload's registry, copied out of the stopped process (every value
 * checked): the heap for kmemleak, or NULL (said why on stderr). */
const struct leak_heap *track_read(const struct leak_remote *d);
/* The generic mode's heap of the stopped process (generic.c), read at
 * the scan's start: the heap for kmemleak, or NULL (said why on stderr). */
const struct leak_heap *generic_read(const struct leak_remote *d);
/* The process's stack depot, described in d (track.c). */
void track_depot(const struct leak_remote *d);
/* The allocation stack of a depot handle of the process: its frames, or 0. */
int track_fetch_stack(uint32_t handle, const uintptr_t **pcs);

/* The objects read (objects.c), whichever heap they are of: added, then
 * sorted, then served through the functions of a struct leak_heap.
 * kmemleak's bits are a 32-bit word's from bit shift (the rest its
 * thread's); glibc_headers: the last 16-aligned word of an object is
 * glibc's next chunk header, no reference. */
struct leak_span;
struct leak_object;
struct leak_object_info;
void objects_layout(unsigned shift, int glibc_headers);
int objects_add(uintptr_t base, size_t size, uint32_t stack, uint32_t tid, uint32_t word,
                uintptr_t word_at);
void objects_sort(void);
size_t objects_count(void);
int objects_scan_begin(const struct leak_span *spans, long n, uintptr_t *first,
                       struct leak_span *bounds);
struct leak_object *objects_find(uintptr_t a);
void objects_each_live(void (*fn)(struct leak_object *o, void *arg), void *arg);
void objects_describe(const struct leak_object *o, struct leak_object_info *info);
unsigned objects_flags_update(struct leak_object *o, unsigned set, unsigned clear);

#endif
