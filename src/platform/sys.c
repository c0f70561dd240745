#include "sys.h"

#include <errno.h>

#include "../arch/arch.h"

long sys_call6(long nr, long a, long b, long c, long d, long e, long f)
{
	long r = arch_syscall6(nr, a, b, c, d, e, f);
	if ((unsigned long)r > -4096ul) {
		errno = (int)-r;
		return -1;
	}
	return r;
}
