/* The only interface to the operating system. A port to another OS replaces
 * src/platform/ alone. Nothing here calls the program's malloc. */
#ifndef UKASAN_PLATFORM_OS_H
#define UKASAN_PLATFORM_OS_H

#include <stddef.h>
#include <stdint.h>

enum os_prot { OS_PROT_NONE, OS_PROT_READ, OS_PROT_RW };

size_t os_page_size(void);
/* Reserve address space; pages are committed on first touch only. */
void *os_reserve(size_t size, enum os_prot prot);
/* Reserve at a fixed address without replacing anything already there. */
void *os_reserve_at(uintptr_t addr, size_t size, enum os_prot prot);
void os_release(void *addr, size_t size);
int os_protect(void *addr, size_t size, enum os_prot prot);
/* Give the pages back to the OS; they read as zero afterwards. */
void os_discard(void *addr, size_t size);

int os_tid(void);
/* The calling thread's stack, from sp: the mapping that holds it (for the
 * main thread, down to where its limit lets it grow). Takes no lock and
 * does not allocate. 0: the thread's stack; 1: a signal stack the thread
 * is running on now; -1: unknown. */
int os_thread_stack(uintptr_t sp, uintptr_t *lo, uintptr_t *hi);
void os_after_fork_child(void);
int os_pid(void);
int os_cpu(void);
unsigned os_uid(void);
void os_task_name(char name[16]);
uint64_t os_now_ns(void);
uint64_t os_random_seed(void);
void os_yield(void);
/* True in set-user-ID / set-group-ID (secure-execution) processes. */
int os_secure_exec(void);
/* arm64's tagged address ABI: system calls accept pointers with a tag in
 * their top byte. 0 on success. */
int os_tagged_addr_enable(void);
const char *os_getenv(const char *name);

int os_open_append(const char *path);
int os_open_read(const char *path);
void os_close(int fd);
void os_write_all(int fd, const char *buf, size_t len);
/* Whether fd is an open descriptor. */
int os_fd_open(int fd);
/* A close-on-exec duplicate of fd numbered 100 or more, out of the way of
 * programs that count on their own low numbers; -1 on failure. */
int os_dup_high(int fd);
/* What fd refers to (device and inode), 0 if it is not open: to tell
 * whether a descriptor number still names the same file. */
uint64_t os_fd_identity(int fd);
long os_read(int fd, void *buf, size_t len);
/* Copy from memory that may not be mapped (a pointer a bug may have
 * overwritten): the bytes copied before the first unreadable one. */
size_t os_copy_readable(void *dst, const void *src, size_t len);
/* Resident bytes of the mappings that lie within [lo, hi), from
 * /proc/self/smaps: for statistics, not for hot paths. */
size_t os_resident_bytes(uintptr_t lo, uintptr_t hi);
/* Map a whole file read-only; returns NULL on failure. */
void *os_map_file(const char *path, size_t *size);
int os_file_exists(const char *path);
int os_self_exe(char *buf, size_t len);

/* Run argv[0] with stdout captured into out (NUL-terminated), with
 * LD_PRELOAD removed from its environment. Returns bytes read or -1.
 * Uses vfork and execve only, so it is usable from a fault handler. */
long os_run_capture(const char *const argv[], char *out, size_t outsz, int timeout_ms);

/* Terminate at once with a signal's default action. */
void os_die(int sig) __attribute__((noreturn));
void os_exit(int status) __attribute__((noreturn));

#endif
