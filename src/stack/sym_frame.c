/* One pc in parts (sym_frame, sym_info), and what a signature reads of
 * it (sym_raw_name, sym_line_always, sym_module_path): symbolize.h. */
#define _GNU_SOURCE
#include "symbolize.h"

#include <string.h>

#include "../base/compiler.h"
#include "../config/log.h"
#include "symbolize_impl.h"

/* "file:line" or "file:line:column" into out's fields. */
static void split_line(char *text, struct sym_info *out)
{
	char *colon = strrchr(text, ':');
	if (!text[0] || !colon)
		return;
	int n = 0;
	for (const char *d = colon + 1; *d >= '0' && *d <= '9'; d++)
		n = n * 10 + (*d - '0');
	*colon = 0;
	char *before = strrchr(text, ':');
	int all_digits = before != NULL;
	for (const char *d = before ? before + 1 : ""; all_digits && *d; d++)
		all_digits = *d >= '0' && *d <= '9';
	if (all_digits && before[1]) {
		int l = 0;
		for (const char *d = before + 1; *d; d++)
			l = l * 10 + (*d - '0');
		*before = 0;
		out->line = l;
		out->column = n;
	} else {
		out->line = n;
	}
	fmt_buf(out->file, sizeof(out->file), "%s", text);
}

int sym_frame(uintptr_t pc, int exact, struct sym_info *out)
{
	static struct frame_sym f;
	static char lines[64][160];
	rt_memset(out, 0, sizeof(*out));
	sym_lookup(pc, exact, &f);
	if (!f.m)
		return 0;
	sym_demangle(&f, 1);
	if (f.found) {
		fmt_buf(out->function, sizeof(out->function), "%s", f.name);
		out->function_offset = f.off;
	}
	fmt_buf(out->module, sizeof(out->module), "%s", f.m->path);
	fmt_buf(out->build_id, sizeof(out->build_id), "%s", f.m->build_id);
	/* The offset whose byte before lies in the frame's instruction, as
	 * the text's [module+0x...] (and llvm-symbolizer's input) has it. */
	out->module_offset = pc - f.m->bias + (exact ? 1 : 0);
	lines[0][0] = 0;
	sym_lines_of(f.m, &pc, 1, exact, lines);
	split_line(lines[0], out);
	return 1;
}

int sym_info(uintptr_t pc, struct sym_info *out)
{
	return sym_frame(pc, 0, out);
}

int sym_raw_name(uintptr_t pc, int exact, char *buf, size_t cap)
{
	static struct frame_sym f;
	sym_lookup(pc, exact, &f);
	if (!f.found)
		return 0;
	fmt_buf(buf, cap, "%s", f.name);
	return 1;
}

int sym_line_always(uintptr_t pc, int exact)
{
	static char lines[64][160];
	struct module *m = sym_module_of(pc);
	if (!m || !m->has_debug)
		return 0;
	lines[0][0] = 0;
	if (sym_lines_internal(m, &pc, 1, exact, lines) != 0)
		return 0;
	static struct sym_info info;
	info.line = 0;
	split_line(lines[0], &info);
	return info.line;
}

const char *sym_module_path(uintptr_t pc, uintptr_t *offset)
{
	struct module *m = sym_module_of(pc);
	if (!m)
		return NULL;
	*offset = pc - m->bias;
	return m->path;
}
