/* For kmemleak's scan: the process's mappings and its other threads, held
 * still while their stacks and registers are read. Raw system calls only:
 * the scan runs while other threads may hold libc's and the loader's locks. */
#ifndef UKASAN_PLATFORM_THREADS_H
#define UKASAN_PLATFORM_THREADS_H

#include <stddef.h>
#include <stdint.h>

enum os_map_flags {
	OS_MAP_R = 1,
	OS_MAP_W = 2,
	OS_MAP_X = 4,
	OS_MAP_FILE = 8,     /* backed by a file (a path starting with '/') */
	OS_MAP_HEAP = 16,    /* [heap] */
	OS_MAP_STACK = 32,   /* [stack] */
	OS_MAP_SPECIAL = 64, /* [vdso], [vvar] and the like */
	OS_MAP_LINKER = 128, /* the dynamic linker's file */
	OS_MAP_SHARED = 256, /* shared ('s'): a file's pages, or memory shared with others */
};

struct os_map {
	uintptr_t start, end;
	uint64_t path_hash; /* equal paths, equal hashes; 0 for none */
	unsigned flags;
};

/* /proc/self/maps into out (ascending addresses); the count, or -1. */
long os_maps_read(struct os_map *out, size_t max);
/* The same from another maps file (/proc/PID/maps, for ukasan leaks). */
long os_maps_read_path(const char *path, struct os_map *out, size_t max);

/* mincore(2): one byte per page of [addr, addr+len), bit 0 set when resident;
 * 0, or -1 when part of the range is not mapped. */
int os_resident(uintptr_t addr, size_t len, unsigned char *vec);

/* What a stopped thread left: its registers as the signal saw them. */
#define OS_THREAD_REGS 32
enum os_thread_state {
	OS_THREAD_WAITING,  /* signalled, not there yet */
	OS_THREAD_STOPPED,  /* sp, tp and regs are valid */
	OS_THREAD_BLOCKING, /* it blocks the signal: sp from the kernel if known, no regs */
	OS_THREAD_GONE,     /* it exited meanwhile (or, under an emulator, never came) */
	OS_THREAD_FILLING,  /* in the handler, saving its registers (never returned) */
};
struct os_thread {
	int tid;
	int state;
	uintptr_t sp, tp;
	uintptr_t regs[OS_THREAD_REGS];
};

/* Notes the tasks that exist now, before the program has started any:
 * an emulator's own, which a stop then leaves out (threads.c). At start
 * and in a forked child. */
void os_threads_note_existing(void);

/* Stop every thread but the caller, filling out (up to max); the count,
 * or -1 when no signal is free. os_threads_resume must follow. */
long os_threads_stop(struct os_thread *out, size_t max);
void os_threads_resume(void);

/* The calling thread's thread pointer (the TCB glibc puts its TLS beside). */
uintptr_t os_thread_pointer(void);

#endif
