/* A stack in AddressSanitizer's form beside the kernel's, for readers that
 * know only one of them: symbolize.h. */
#include "symbolize.h"

#include "../config/log.h"
#include "symbolize_impl.h"

static struct frame_sym fs[64];
static char lines[64][160];

static int lookup(const uintptr_t *pcs, int n, int first_exact)
{
	if (n > 64)
		n = 64;
	for (int i = 0; i < n; i++)
		sym_lookup(pcs[i], i == 0 && first_exact, &fs[i]);
	sym_demangle(fs, n);
	return n;
}

static int word(const char *s)
{
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || *s == '_'))
			return 0;
	return 1;
}

int sym_kernel_readable(const uintptr_t *pcs, int n, int first_exact)
{
	n = lookup(pcs, n, first_exact);
	for (int i = 0; i < n; i++)
		if (fs[i].found && !word(fs[i].name))
			return 0;
	return 1;
}

void sym_print_sanitizer_stack(const uintptr_t *pcs, int n, int first_exact)
{
	static char frame[512];
	n = lookup(pcs, n, first_exact);
	sym_lines_all(pcs, n, first_exact, lines);
	for (int i = 0; i < n; i++) {
		size_t k = fmt_buf(frame, sizeof(frame), "    #%d 0x%lx", i, (unsigned long)pcs[i]);
		if (fs[i].found)
			k += fmt_buf(frame + k, sizeof(frame) - k, " in %s", fs[i].name);
		if (lines[i][0])
			fmt_buf(frame + k, sizeof(frame) - k, " %s", lines[i]);
		else if (fs[i].m)
			fmt_buf(frame + k, sizeof(frame) - k, " (%s+0x%lx)", fs[i].m->path,
			        (unsigned long)(pcs[i] - fs[i].m->bias +
			                        (i == 0 && first_exact ? 1 : 0)));
		report_printf("%s\n", frame);
	}
}
