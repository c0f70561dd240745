// MODE: generic
// ASan's allocator_may_return_null=1 (here from the program's
// __asan_default_options): the requests of alloc_requests.c fail as
// glibc's do, NULL and ENOMEM or EINVAL, without a report; exit status 0.
// NOT: BUG:
// STDOUT: calloc(-1, 1000): NULL, ENOMEM
// STDOUT: malloc(2^40+1): NULL, ENOMEM
// STDOUT: reallocarray overflow: NULL, ENOMEM
// STDOUT: pvalloc overflow: NULL, ENOMEM
// STDOUT: posix_memalign(3): EINVAL, errno kept: yes
// STDOUT: posix_memalign(4): EINVAL
// STDOUT: aligned_alloc(3): NULL, EINVAL
// STDOUT: memalign(3): NULL, EINVAL
// STDOUT: malloc(100): ok
#include "_alloc_requests.h"

const char *__asan_default_options(void)
{
	return "allocator_may_return_null=1";
}
