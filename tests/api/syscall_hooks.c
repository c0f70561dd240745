// MODE: generic
// RUN: kasan_multi_shot
// <sanitizer/linux_syscall_hooks.h>: before a system call the program makes
// itself, the hooks check what the kernel will read as a read and what it
// will write as a write, as ASan's do (LLVM's Linux/syscalls.cpp: recvmsg's
// msghdr one byte before a stack array). A path is read to its terminator.
// Good arguments, the post hooks and the hooks of calls with no memory to
// check report nothing. gcc ships no such header: the same declarations.
// EXPECT: BUG: KASAN: stack-out-of-bounds in main+0x
// EXPECT: Read of size 56 at addr
// EXPECT: BUG: KASAN: slab-out-of-bounds in main+0x
// EXPECT: Write of size 16 at addr
// EXPECT: BUG: KASAN: slab-use-after-free in main+0x
// EXPECT: Read of size 8 at addr
// EXPECT: BUG: KASAN: global-out-of-bounds in main+0x
// EXPECT: Read of size 9 at addr
// COUNT: 4 BUG: KASAN:
// STDOUT: done
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if __has_include(<sanitizer/linux_syscall_hooks.h>)
#include <sanitizer/linux_syscall_hooks.h>
#else
void __sanitizer_syscall_pre_impl_recvmsg(long fd, long msg, long flags);
void __sanitizer_syscall_pre_impl_read(long fd, long buf, long count);
void __sanitizer_syscall_post_impl_read(long res, long fd, long buf, long count);
void __sanitizer_syscall_pre_impl_write(long fd, long buf, long count);
void __sanitizer_syscall_pre_impl_open(long path, long flags, long mode);
void __sanitizer_syscall_pre_impl_getpid(void);
void __sanitizer_syscall_post_impl_getpid(long res);
#define __sanitizer_syscall_pre_recvmsg(fd, msg, flags)                                            \
	__sanitizer_syscall_pre_impl_recvmsg((long)(fd), (long)(msg), (long)(flags))
#define __sanitizer_syscall_pre_read(fd, buf, count)                                               \
	__sanitizer_syscall_pre_impl_read((long)(fd), (long)(buf), (long)(count))
#define __sanitizer_syscall_post_read(res, fd, buf, count)                                         \
	__sanitizer_syscall_post_impl_read(res, (long)(fd), (long)(buf), (long)(count))
#define __sanitizer_syscall_pre_write(fd, buf, count)                                              \
	__sanitizer_syscall_pre_impl_write((long)(fd), (long)(buf), (long)(count))
#define __sanitizer_syscall_pre_open(path, flags, mode)                                            \
	__sanitizer_syscall_pre_impl_open((long)(path), (long)(flags), (long)(mode))
#define __sanitizer_syscall_pre_getpid()     __sanitizer_syscall_pre_impl_getpid()
#define __sanitizer_syscall_post_getpid(res) __sanitizer_syscall_post_impl_getpid(res)
#endif

/* Its redzone reads zero (the global's padding): the string ends there. */
char path[8];

int main(void)
{
	char buf[1000];
	char *heap = malloc(10), *freed = malloc(8);
	asm volatile("" : : "r"(buf), "r"(freed) : "memory");
	free(freed);
	memset(path, 'a', 8); /* no terminator */

	__sanitizer_syscall_pre_recvmsg(0, buf - 1, 0);
	__sanitizer_syscall_pre_read(0, heap, 16);
	__sanitizer_syscall_pre_write(1, freed, 8);
	__sanitizer_syscall_pre_open(path, 0, 0);

	/* Clean. */
	path[7] = 0;
	__sanitizer_syscall_pre_open(path, 0, 0);
	__sanitizer_syscall_pre_read(0, heap, 10);
	__sanitizer_syscall_post_read(10, 0, heap, 10);
	__sanitizer_syscall_pre_read(0, NULL, 10);
	__sanitizer_syscall_pre_getpid();
	__sanitizer_syscall_post_getpid(1);
	free(heap);
	printf("done\n");
	return 0;
}
