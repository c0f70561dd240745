/* A stack in AddressSanitizer's form beside the kernel's, for readers that
 * know only one of them: frames.h. */
#include "frames.h"

#include "../config/log.h"
#include "../stack/symbolize.h"
#include "../stack/symbolize_impl.h"
#include "report.h"

static struct frame_sym fs[64];
static char lines[64][160];
static const uintptr_t *stack;
static int depth, exact;
static char name[256];

static int word(const char *s)
{
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || *s == '_'))
			return 0;
	return 1;
}

int report_sanitizer_stack_needed(const uintptr_t *pcs, int n, int first_exact)
{
	stack = pcs;
	depth = n > 64 ? 64 : n;
	exact = first_exact;
	for (int i = 0; i < depth; i++)
		sym_lookup(pcs[i], i == 0 && exact, &fs[i]);
	sym_demangle(fs, depth);
	for (int i = 0; i < depth; i++) {
		if (fs[i].found && !word(fs[i].name))
			return 1;
		const struct sym_inlined *in = sym_inlined_at(stack[i], i == 0 && exact);
		for (int j = 0; in && j < in->n; j++) {
			sym_inline_name(in, j, 0, name, sizeof(name));
			if (!word(name))
				return 1;
		}
	}
	return 0;
}

void report_sanitizer_stack(void)
{
	static char frame[512];
	sym_lines_all(stack, depth, exact, lines);
	/* A function inlined at a pc is a frame of its own, numbered on, with
	 * the same pc, as ASan prints it: the innermost has the pc's line,
	 * each one out the line of the call in it. */
	for (int i = 0, no = 0; i < depth; i++, no++) {
		uintptr_t pc = stack[i];
		const char *line = lines[i];
		const struct sym_inlined *in = sym_inlined_at(pc, i == 0 && exact);
		for (int j = 0; in && j < in->n; j++, no++) {
			sym_inline_name(in, j, 0, name, sizeof(name));
			report_printf("    #%d 0x%lx in %s%s%s\n", no, (unsigned long)pc, name,
			              line[0] ? " " : "", line);
			line = in->f[j].call;
		}
		size_t k = fmt_buf(frame, sizeof(frame), "    #%d 0x%lx", no, (unsigned long)pc);
		if (fs[i].found)
			k += fmt_buf(frame + k, sizeof(frame) - k, " in %s", fs[i].name);
		if (line[0])
			fmt_buf(frame + k, sizeof(frame) - k, " %s", line);
		else if (fs[i].m)
			fmt_buf(frame + k, sizeof(frame) - k, " (%s+0x%lx)", fs[i].m->path,
			        (unsigned long)(pc - fs[i].m->bias + (i == 0 && exact ? 1 : 0)));
		report_printf("%s\n", frame);
	}
}
