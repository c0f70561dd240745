/* A report's stacks in the kernel's form (frames.h). */
#include "frames.h"

#include <string.h>

#include "../config/log.h"
#include "../platform/os.h"
#include "../stack/symbolize.h"
#include "../stack/symbolize_impl.h"
#include "report.h"

/* "func+0xOFF/0xSIZE", or the bare address. */
static size_t describe(uintptr_t pc, const struct frame_sym *f, char *buf, size_t cap)
{
	if (!f->found)
		return fmt_buf(buf, cap, "0x%lx", (unsigned long)pc);
	return fmt_buf(buf, cap, "%s+0x%lx/0x%lx", f->name, f->off, f->size);
}

static int is_main(const struct module *m)
{
	char exe[256];
	return os_self_exe(exe, sizeof(exe)) == 0 && !strcmp(exe, m->path);
}

/* The functions inlined at pc, one line each before its own, innermost
 * first, marked [inline] as the kernel's decode_stacktrace.sh and syzkaller
 * mark them; each "name+0xOFF/0xSIZE" (in the inlined code's range), as
 * ClusterFuzz's parser reads a frame. *line: the pc's line, which is the
 * innermost one's; the real function's becomes the outermost's call. */
static void print_inlined(uintptr_t pc, int exact, const char *pc_indent, const char **line)
{
	static char name[512];
	const struct sym_inlined *in = sym_inlined_at(pc, exact);
	for (int j = 0; in && j < in->n; j++) {
		sym_inline_name(in, j, 0, name, sizeof(name));
		if (pc_indent)
			report_printf("%s[<%016lx>] ", pc_indent, (unsigned long)pc);
		else
			report_printf(" ");
		report_printf("%s+0x%lx/0x%lx%s%s [inline]\n", name, in->f[j].off, in->f[j].size,
		              (*line)[0] ? " " : "", *line);
		*line = in->f[j].call;
	}
}

static void print_stack(const uintptr_t *pcs, int n, int first_exact, const char *pc_indent)
{
	static char lines[64][160];
	static char frame[512];
	if (n > 64)
		n = 64;
	sym_lines_all(pcs, n, first_exact, lines);
	static struct frame_sym fs[64];
	for (int i = 0; i < n; i++)
		sym_lookup(pcs[i], i == 0 && first_exact, &fs[i]);
	sym_demangle(fs, n);
	for (int i = 0; i < n; i++) {
		struct module *m = fs[i].m;
		const char *line = lines[i];
		print_inlined(pcs[i], i == 0 && first_exact, pc_indent, &line);
		size_t k = describe(pcs[i], &fs[i], frame, sizeof(frame));
		if (line[0]) {
			k += fmt_buf(frame + k, sizeof(frame) - k, " %s", line);
			if (m && !is_main(m))
				fmt_buf(frame + k, sizeof(frame) - k, " [%s]",
				        sym_base_name(m->path));
		} else if (m) {
			/* Enough to finish the frame offline: the module, an
			 * offset whose byte before lies in the frame's
			 * instruction (a return address as it is, a fault pc
			 * plus one), and the build-id. */
			int exact = i == 0 && first_exact;
			k += fmt_buf(frame + k, sizeof(frame) - k, " [%s+0x%lx",
			             sym_base_name(m->path),
			             (unsigned long)(pcs[i] - m->bias + (exact ? 1 : 0)));
			if (m->build_id[0])
				k += fmt_buf(frame + k, sizeof(frame) - k, " %s", m->build_id);
			fmt_buf(frame + k, sizeof(frame) - k, "]");
		}
		if (pc_indent)
			report_printf("%s[<%016lx>] %s\n", pc_indent, (unsigned long)pcs[i], frame);
		else
			report_printf(" %s\n", frame);
	}
}

void report_stack(const uintptr_t *pcs, int n, int first_exact)
{
	print_stack(pcs, n, first_exact, NULL);
}

void report_stack_pcs(const uintptr_t *pcs, int n, int first_exact, const char *indent)
{
	print_stack(pcs, n, first_exact, indent);
}
