/* Reads one name a line, writes what cxx_demangle makes of it, or "?" and
 * the name where it gives up (for c++filt to answer). */
#include <stdio.h>
#include <string.h>

#include "demangle.h"

int main(void)
{
	static char line[65536], out[8192];
	while (fgets(line, sizeof(line), stdin)) {
		line[strcspn(line, "\n")] = 0;
		if (cxx_demangle(line, out, sizeof(out)))
			printf("?%s\n", line);
		else
			printf("%s\n", out);
	}
	return 0;
}
