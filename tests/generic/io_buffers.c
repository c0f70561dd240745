// MODE: generic
// RUN: kasan_multi_shot
// More calls that fill or drain a buffer, as copy_user_test_oob does for
// read() and write(): each gets a 40-byte object and a length one byte too
// long (the vectored ones as the second of two buffers), and is reported before the buffer is touched; the call then fails
// with EFAULT and does nothing.
// EXPECT: Write of size 41
// EXPECT: Read of size 41
// EXPECT: Write of size 41
// EXPECT: Read of size 41
// EXPECT: Write of size 41
// EXPECT: Read of size 41
// EXPECT: Write of size 41
// EXPECT: Read of size 41
// EXPECT: Write of size 41
// EXPECT: Write of size 41
// EXPECT: Read of size 41
// EXPECT: Write of size 41
// EXPECT: Read of size 41
// COUNT: 13 BUG: KASAN: slab-out-of-bounds in io_buffers+0x
// STDOUT: all failed with EFAULT, the buffer untouched
#include "kasan_test.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/socket.h>
#include <sys/uio.h>

KASAN_TEST void io_buffers(void)
{
	size_t size = 40;
	char *buf = malloc(size); int aline = __LINE__;
	int zero = open("/dev/zero", O_RDONLY), null = open("/dev/null", O_WRONLY), sv[2];
	FILE *fz = fopen("/dev/zero", "r"), *fn = fopen("/dev/null", "w");
	int efault = 0, calls = 0;

	OPTIMIZER_HIDE_VAR(size);
	if (zero < 0 || null < 0 || !fz || !fn || socketpair(AF_UNIX, SOCK_DGRAM, 0, sv))
		kasan_test_fail("cannot open /dev/zero, /dev/null or a socket pair");
	memset(buf, 'a', size);
	send(sv[1], buf, size, 0);
	send(sv[1], buf, size, 0);
#define COUNT_EFAULT(e) (calls++, errno = 0, (void)(e), efault += errno == EFAULT)
	KASAN_EXPECT_FAIL(COUNT_EFAULT(pread(zero, buf, size + 1, 0)), .type = "slab-out-of-bounds", .rw = "Write", .size = 41, .addr = buf, .bad = buf + size, .obj = buf, .obj_size = size, .alloc_line = aline);
	KASAN_EXPECT_FAIL(COUNT_EFAULT(pwrite(null, buf, size + 1, 0)), .type = "slab-out-of-bounds", .rw = "Read", .size = 41, .addr = buf, .bad = buf + size, .obj = buf, .obj_size = size, .alloc_line = aline);
	KASAN_EXPECT_FAIL(COUNT_EFAULT(recv(sv[0], buf, size + 1, 0)), .type = "slab-out-of-bounds", .rw = "Write", .size = 41, .addr = buf, .bad = buf + size, .obj = buf, .obj_size = size, .alloc_line = aline);
	KASAN_EXPECT_FAIL(COUNT_EFAULT(send(sv[1], buf, size + 1, 0)), .type = "slab-out-of-bounds", .rw = "Read", .size = 41, .addr = buf, .bad = buf + size, .obj = buf, .obj_size = size, .alloc_line = aline);
	KASAN_EXPECT_FAIL(COUNT_EFAULT(recvfrom(sv[0], buf, size + 1, 0, NULL, NULL)), .type = "slab-out-of-bounds", .rw = "Write", .size = 41, .addr = buf, .bad = buf + size, .obj = buf, .obj_size = size, .alloc_line = aline);
	KASAN_EXPECT_FAIL(COUNT_EFAULT(sendto(sv[1], buf, size + 1, 0, NULL, 0)), .type = "slab-out-of-bounds", .rw = "Read", .size = 41, .addr = buf, .bad = buf + size, .obj = buf, .obj_size = size, .alloc_line = aline);
	KASAN_EXPECT_FAIL(COUNT_EFAULT(fread(buf, 1, size + 1, fz)), .type = "slab-out-of-bounds", .rw = "Write", .size = 41, .addr = buf, .bad = buf + size, .obj = buf, .obj_size = size, .alloc_line = aline);
	KASAN_EXPECT_FAIL(COUNT_EFAULT(fwrite(buf, size + 1, 1, fn)), .type = "slab-out-of-bounds", .rw = "Read", .size = 41, .addr = buf, .bad = buf + size, .obj = buf, .obj_size = size, .alloc_line = aline);
	KASAN_EXPECT_FAIL(COUNT_EFAULT(fgets(buf, (int)size + 1, fz)), .type = "slab-out-of-bounds", .rw = "Write", .size = 41, .addr = buf, .bad = buf + size, .obj = buf, .obj_size = size, .alloc_line = aline);
	char first[8];
	struct iovec iov[2] = {{first, sizeof(first)}, {buf, size + 1}};
	struct msghdr mh = {.msg_iov = iov, .msg_iovlen = 2};
	KASAN_EXPECT_FAIL(COUNT_EFAULT(readv(zero, iov, 2)), .type = "slab-out-of-bounds", .rw = "Write", .size = 41, .addr = buf, .bad = buf + size, .obj = buf, .obj_size = size, .alloc_line = aline);
	KASAN_EXPECT_FAIL(COUNT_EFAULT(writev(null, iov, 2)), .type = "slab-out-of-bounds", .rw = "Read", .size = 41, .addr = buf, .bad = buf + size, .obj = buf, .obj_size = size, .alloc_line = aline);
	KASAN_EXPECT_FAIL(COUNT_EFAULT(recvmsg(sv[0], &mh, 0)), .type = "slab-out-of-bounds", .rw = "Write", .size = 41, .addr = buf, .bad = buf + size, .obj = buf, .obj_size = size, .alloc_line = aline);
	KASAN_EXPECT_FAIL(COUNT_EFAULT(sendmsg(sv[1], &mh, 0)), .type = "slab-out-of-bounds", .rw = "Read", .size = 41, .addr = buf, .bad = buf + size, .obj = buf, .obj_size = size, .alloc_line = aline);
	int intact = 1;
	for (size_t i = 0; i < size; i++)
		intact &= buf[i] == 'a';
	printf("%s failed with EFAULT, %s\n", efault == calls ? "all" : "NOT all",
	       intact ? "the buffer untouched" : "the buffer was written");
	fclose(fz);
	fclose(fn);
	close(zero);
	close(null);
	close(sv[0]);
	close(sv[1]);
	free(buf);
}

int main(void)
{
	io_buffers();
	return 0;
}
