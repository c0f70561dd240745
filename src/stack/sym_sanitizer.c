/* A stack in AddressSanitizer's form beside the kernel's, for readers that
 * know only one of them: symbolize.h. */
#include "symbolize.h"

#include "../config/log.h"
#include "symbolize_impl.h"

static struct frame_sym fs[64];
static char lines[64][160];
static const uintptr_t *stack;
static int depth, exact;

static int word(const char *s)
{
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || *s == '_'))
			return 0;
	return 1;
}

int sym_sanitizer_stack_needed(const uintptr_t *pcs, int n, int first_exact)
{
	stack = pcs;
	depth = n > 64 ? 64 : n;
	exact = first_exact;
	for (int i = 0; i < depth; i++)
		sym_lookup(pcs[i], i == 0 && exact, &fs[i]);
	sym_demangle(fs, depth);
	for (int i = 0; i < depth; i++)
		if (fs[i].found && !word(fs[i].name))
			return 1;
	return 0;
}

void sym_print_sanitizer_stack(void)
{
	static char frame[512];
	sym_lines_all(stack, depth, exact, lines);
	for (int i = 0; i < depth; i++) {
		uintptr_t pc = stack[i];
		size_t k = fmt_buf(frame, sizeof(frame), "    #%d 0x%lx", i, (unsigned long)pc);
		if (fs[i].found)
			k += fmt_buf(frame + k, sizeof(frame) - k, " in %s", fs[i].name);
		if (lines[i][0])
			fmt_buf(frame + k, sizeof(frame) - k, " %s", lines[i]);
		else if (fs[i].m)
			fmt_buf(frame + k, sizeof(frame) - k, " (%s+0x%lx)", fs[i].m->path,
			        (unsigned long)(pc - fs[i].m->bias + (i == 0 && exact ? 1 : 0)));
		report_printf("%s\n", frame);
	}
}
