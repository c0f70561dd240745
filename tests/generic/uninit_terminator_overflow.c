// MODE: generic
// Modelled on libxml2's CVE-2015-8317 (an unterminated encoding name read
// past its end), which AddressSanitizer finds only because it fills new
// objects: a parser copies a name into a new buffer and forgets its
// terminator; the scan for the terminator reads on through bytes never
// written. Fresh memory is zero and would stop the scan inside the
// buffer; filled with ASan's 0xbe it runs into the redzone.
// EXPECT: BUG: KASAN: slab-out-of-bounds in name_length+0x
// EXPECT-RE: ^Read of size 1 at addr [0-9a-f]{16} by task \S+/\d+$
// EXPECT-RE: ^ \[<[0-9a-f]+>\] name_length\+0x[0-9a-f]+/0x[0-9a-f]+ tests/generic/uninit_terminator_overflow.c:\d+$
// EXPECT: which belongs to the cache malloc of size 24
// EXPECT: The buggy address is located 0 bytes to the right of
// COUNT: 1 BUG: KASAN:
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kfence_test.h"

/* The parser's own strlen, instrumented as the program is. */
__attribute__((noinline)) static size_t name_length(const char *s)
{
	size_t n = 0;
	while (((const volatile char *)s)[n])
		n++;
	return n;
}

__attribute__((noinline)) static char *copy_name(const char *in, size_t len)
{
	char *buf = malloc(24);
	expect(" allocated 24-byte region [%016lx, %016lx)", (unsigned long)buf,
	       (unsigned long)buf + 24);
	memcpy(buf, in, len); /* the bug: no buf[len] = 0 */
	return buf;
}

int main(void)
{
	char *name = copy_name("UTF-8\"?>", 5);
	printf("length %zu\n", name_length(name));
	free(name);
	return 0;
}
