/* `ukasan leaks PID` (main.c): the running process's modules, for its
 * frames and for finding its runtime (modules.c), and the heaps read from
 * it (track.c). */
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
/* The allocation stack of a depot handle of the process: its frames, or 0. */
int track_fetch_stack(uint32_t handle, const uintptr_t **pcs);

#endif
