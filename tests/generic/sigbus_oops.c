// MODE: generic
// A read of a file's mapping past the file's end, after the file was
// truncated under it: the kernel sends SIGBUS, which ukasan did not handle
// at all. It gets the kernel's oops for a page fault it cannot handle (in
// the kernel a bus error in a page fault ends in the same oops), then the
// program dies of SIGBUS as it would have.
// STATUS: signal SIGBUS
// EXPECT: BUG: unable to handle page fault for address:
// EXPECT: #PF: user read access in user mode
// EXPECT: Call Trace:
// EXPECT-RE: ^ \[<[0-9a-f]+>\] read_mapped\+0x[0-9a-f]+/0x[0-9a-f]+ tests/generic/sigbus_oops\.c:\d+\n \[<[0-9a-f]+>\] main\+0x
// COUNT: 2 ==================================================================
#define _GNU_SOURCE
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

__attribute__((noinline)) static int read_mapped(volatile char *p)
{
	int v = p[100];
	__asm__ volatile(""); /* not a tail call: this frame stays in the trace */
	return v;
}

int main(void)
{
	int fd = memfd_create("sigbus_oops", 0);
	if (fd < 0 || ftruncate(fd, 4096) != 0)
		return 90;
	char *p = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		return 91;
	if (ftruncate(fd, 0) != 0)
		return 92;
	printf("EXPECT: BUG: unable to handle page fault for address: %016lx\n",
	       (unsigned long)(p + 100));
	fflush(stdout);
	int v = read_mapped(p);
	printf("read %d\n", v); /* not a tail call: main stays in the trace */
	return 0;
}
