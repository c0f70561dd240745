/* The platform's contract, stated here once.
 *
 * src/platform/ is the only code that talks to the operating system and
 * the dynamic linker: no other folder makes a system call, opens a file,
 * maps memory, reads /proc or installs a signal handler except through
 * these headers. A port to another OS replaces src/platform/ alone.
 *
 * What it provides, by header: os.h (this one: memory, threads' stacks,
 * the process's facts and sandbox state, time, descriptors and the safe
 * log files, datagrams to local sockets, running a helper), signals.h
 * (fault signals beside the program's handlers, the fatal-fault hooks),
 * threads.h (the other threads held still for kmemleak's scan), sys.h
 * (system calls made by the instruction, not libc's interposed
 * wrappers), dynlink.h (functions found in the loaded objects without
 * dlsym), libc_alloc.h (glibc's allocator under its internal names),
 * mte.h (arm64 MTE's system interface), lock.h (the spinlock, and the
 * order locks nest in).
 *
 * Its rules, for every function: never calls the program's malloc, nor a
 * libc function that may take a lock or allocate (stdio, dlsym, syslog,
 * pthread_getattr_np, dl_iterate_phdr): callers run in the allocator, in
 * fault handlers and after fork. Never raises SIGPIPE or SIGXFSZ in the
 * program, never blocks on a reader. Once the process may be sandboxed,
 * it answers from what was captured at start (below). */
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
/* The ranges os_reserve and os_reserve_at gave and os_release has not taken
 * back: fewer than there are when its table is full, never a range that is
 * not ours. Lock-free (a leak scan reads it with the threads stopped). */
struct os_range {
	uintptr_t start, end;
};
long os_own_ranges(struct os_range *out, long max);
int os_protect(void *addr, size_t size, enum os_prot prot);
/* Give the pages back to the OS; they read as zero afterwards. */
void os_discard(void *addr, size_t size);
/* 1 when every page of [lo, hi) in memory is a page of a file, no
 * private copy of one (a page written, or memory a program mapped there
 * since), so that os_discard loses nothing: /proc/self/pagemap says. 0
 * when one is not, or when that cannot be read (a sandbox, no /proc). */
int os_pages_from_file(uintptr_t lo, uintptr_t hi);
/* mincore(2): vec[i] bit 0 set when page i of [addr, addr + size) is in
 * memory (the shared zero page counts). 0, or -1 on failure. */
int os_pages_resident(void *addr, size_t size, unsigned char *vec);
/* The program break now (brk(2) asked for nothing), and where the break's
 * heap starts (start_brk of /proc/self/stat; 0 where it cannot be read). */
uintptr_t os_brk_now(void);
uintptr_t os_brk_start(void);

int os_tid(void);
/* The calling thread's stack, from sp: the mapping that holds it (for the
 * main thread, down to where its limit lets it grow). Takes no lock and
 * does not allocate. 0: the thread's stack; 1: a signal stack the thread
 * is running on now; -1: unknown. */
int os_thread_stack(uintptr_t sp, uintptr_t *lo, uintptr_t *hi);
/* Whether a fault at addr with the stack pointer at sp is a stack running
 * into the guard below it (a guard mapping, or the gap the kernel keeps
 * under the main thread's stack): 1, with the stack's mapping in [lo, hi).
 * 0 where the mappings cannot be read (a sandbox). */
int os_stack_guard_hit(uintptr_t addr, uintptr_t sp, uintptr_t *lo, uintptr_t *hi);
void os_after_fork_child(void);
int os_pid(void);
int os_cpu(void);
unsigned os_uid(void);

/* The process's facts a report needs, and its sandbox state (proc.c).
 * Capture reads them; called at start, after fork and before a sandbox.
 * Once the process may be sandboxed (os_sandbox_enter: a seccomp filter, a
 * chroot, a resource limit, seen at start or announced), the report path
 * makes no system call beyond writes, reads of the clock, getpid/getuid and
 * memory protection, and these answer from what was captured. */
void os_process_capture(void);
void os_sandbox_enter(void);
int os_sandboxed(void);
/* Whether files may still be opened, read and mapped: not sandboxed, or
 * only by a filter in force at exec (which let the dynamic linker do so). */
int os_may_open_files(void);
/* A seccomp filter is in force now ("Seccomp:" of /proc/self/status),
 * whoever set it and however: one open and read. */
int os_seccomp_now(void);
/* The calling thread's name (the last one captured, when sandboxed). */
void os_task_name(char name[16]);
void os_note_task_name(const char *name);
#define OS_UNLIMITED UINT64_MAX
/* RLIMIT_FSIZE, read again while the process is free, else as last known. */
uint64_t os_fsize_limit(void);
void os_note_fsize_limit(uint64_t limit);
/* RLIMIT_AS (ulimit -v), in bytes; OS_UNLIMITED when none. */
uint64_t os_address_space_limit(void);
/* 1 when [pc, pc + 8) is in the kernel's vDSO (clock.c). */
int os_in_vdso(uintptr_t pc);
/* The monotonic clock, in ns (clock.c: through the vDSO). */
uint64_t os_now_ns(void);
/* The wall clock, ns since 1970 (a report's time). */
uint64_t os_realtime_ns(void);
uint64_t os_random_seed(void);
void os_yield(void);
/* True in set-user-ID / set-group-ID (secure-execution) processes. */
int os_secure_exec(void);
/* arm64's tagged address ABI: system calls accept pointers with a tag in
 * their top byte. 0 on success. */
int os_tagged_addr_enable(void);
const char *os_getenv(const char *name);

int os_open_read(const char *path);
void os_close(int fd);
/* Keep a descriptor in reserve, so that a report's files can be opened
 * when the program has used up its own (RLIMIT_NOFILE): os_open_read and
 * os_pipe use it, or raise the soft limit for the moment, on EMFILE. */
void os_fd_reserve(void);
/* openat(AT_FDCWD, path, flags | O_CLOEXEC) by the system call itself (for
 * /proc files read where libc must not be entered), with the same room on
 * EMFILE; the descriptor or -1. Close it with os_close. */
int os_open_raw(const char *path, int flags);
/* The first size - 1 bytes of a small file (a /proc file) by os_open_raw,
 * NUL-terminated in buf: their count, or -1 (nothing read). */
long os_read_small(const char *path, char *buf, size_t size);
/* pipe2(O_CLOEXEC), with the same room on EMFILE. */
int os_pipe(int fds[2]);
/* A close-on-exec duplicate of fd numbered 100 or more, out of the way of
 * programs that count on their own low numbers; -1 on failure. */
int os_dup_high(int fd);

/* What a descriptor refers to (fd.c). UNKNOWN: a sandbox refused to say. */
enum os_fd_kind { OS_FD_CLOSED, OS_FD_UNKNOWN, OS_FD_FILE, OS_FD_STREAM, OS_FD_OTHER };
struct os_fd_info {
	enum os_fd_kind kind;
	uint64_t identity; /* device and inode: whether a number still names the same file */
	uint64_t size;
};
void os_fd_info(int fd, struct os_fd_info *info);
/* Create or append to a log file (path relative to the directory dir, or
 * to the working directory when dir is -1): never through a symbolic link,
 * only a regular file of ours with one name, mode 0600 when new, numbered
 * 100 or more. The descriptor, or -errno. */
int os_open_log(int dir, const char *path);
/* A directory held open (O_PATH) to create files in after a chroot; -1 on
 * failure. */
int os_open_dir(const char *path);
/* Write all of buf, or what RLIMIT_FSIZE (read at the call) leaves room
 * for, to fd (of the kind last seen): never raising SIGPIPE or SIGXFSZ in
 * the program, even when the reader is gone or the limit is 0. 0 when
 * written, and *cut the bytes the limit left out; -1 when none was
 * written (*cut: len, if for want of room). */
int os_write_report(int fd, enum os_fd_kind kind, const char *buf, size_t len, size_t *cut);

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
/* The executable's path, as captured at start. */
int os_self_exe(char *buf, size_t len);

/* Run argv[0] with stdout captured into out (NUL-terminated), in an
 * environment of its own (PATH and LC_ALL=C: none of the caller's).
 * Returns bytes read or -1; -1 without running anything in a privileged
 * process (set-user-ID, set-group-ID, file capabilities, or a real user or
 * group id other than the effective one). Uses vfork and execve only, so
 * it is usable from a fault handler. */
long os_run_capture(const char *const argv[], char *out, size_t outsz, int timeout_ms);

/* Terminate at once with a signal's default action. */
void os_die(int sig) __attribute__((noreturn));
void os_exit(int status) __attribute__((noreturn));

/* One datagram to the local socket at path, from niov pieces (at most 8),
 * with pass_fd (>= 0) as SCM_RIGHTS; by raw system calls, no lock. Never
 * blocks: while the receiver's queue is full it waits for room up to
 * wait_ms, once, then gives up with -EAGAIN. 0, or -errno. */
struct os_iov {
	const void *base;
	size_t len;
};
int os_dgram_send(const char *path, const struct os_iov *iov, int niov, int pass_fd, int wait_ms);
/* A memfd holding the pieces, sealed against change (journald's way for a
 * message too big for a datagram); -errno when it cannot be made. */
int os_sealed_memfd(const struct os_iov *iov, int niov);

#endif
