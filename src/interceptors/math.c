/* The <math.h> functions that store through a pointer: frexp's exponent.
 * Checked before the call; a bad pointer is reported and the exponent goes
 * to a word of ours instead, so the call still answers the fraction. */
#include <math.h>

#include "io.h"

LIBC(frexp)
LIBC(frexpf)
LIBC(frexpl)

#define FREXP(type, name)                                                                          \
	INTERPOSER type name(type x, int *e)                                                       \
	{                                                                                          \
		int spare;                                                                         \
		if (!CHECK_WRITE(e, sizeof(*e)))                                                   \
			e = &spare;                                                                \
		return get_##name()(x, e);                                                         \
	}

FREXP(double, frexp)
FREXP(float, frexpf)
FREXP(long double, frexpl)
