/* One pc in parts (sym_frame, sym_info), and what a signature reads of
 * it (sym_raw_name, sym_line_always, sym_module_path): symbolize.h. And
 * the functions inlined at a pc (dwarf_info.c), each a frame of its own
 * in the stacks, the title, the token and the JSON line. */
#define _GNU_SOURCE
#include "symbolize.h"

#include <string.h>

#include "../base/compiler.h"
#include "../config/log.h"
#include "../config/options.h"
#include "demangle.h"
#include "dwarf_info.h"
#include "symbolize_impl.h"

/* "file:line" or "file:line:column" into out's fields. */
void sym_split_line(char *text, struct sym_info *out)
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
	sym_split_line(lines[0], out);
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
	sym_split_line(lines[0], &info);
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

/* Inlined functions: looked up in the module's file, else its debug file,
 * and kept for the pcs asked for last. */
static struct inl_cache {
	const struct module *m;
	uintptr_t rel;
	struct sym_inlined in;
	char outer[256]; /* the function's name from the debug information */
} inl_cache[32];
static unsigned inl_next;

void sym_inlines_forget(void)
{
	for (unsigned i = 0; i < sizeof(inl_cache) / sizeof(inl_cache[0]); i++)
		inl_cache[i].m = NULL;
}

/* path with "." and ".." taken out lexically, into out (cap bytes): clang
 * names a cross toolchain's headers as it found them, by way of
 * /usr/bin/../lib/gcc-cross/.../../../../aarch64-linux-gnu/include. */
static void lexical_path(const char *path, char *out, size_t cap)
{
	size_t n = 0;
	out[0] = 0;
	while (*path) {
		while (*path == '/')
			path++;
		size_t len = strcspn(path, "/");
		if (len == 2 && !strncmp(path, "..", 2)) {
			while (n && out[--n] != '/')
				;
			out[n] = 0;
		} else if (len && !(len == 1 && path[0] == '.')) {
			if (n + 1 + len >= cap)
				return;
			out[n++] = '/';
			__builtin_memcpy(out + n, path, len);
			n += len;
			out[n] = 0;
		}
		path += len;
	}
}

/* A header of the system's C library: /usr/include/..., or a cross
 * toolchain's /usr/TRIPLET/include/... (Debian's aarch64-linux-gnu). Not
 * /usr/local/include, where a program's own libraries install theirs. */
static int c_library_header(const char *decl)
{
	char path[512];
	if (decl[0] != '/')
		return 0;
	lexical_path(decl, path, sizeof(path));
	if (!strncmp(path, "/usr/include/", 13))
		return 1;
	if (strncmp(path, "/usr/", 5))
		return 0;
	const char *slash = strchr(path + 5, '/');
	return slash && memmem(path + 5, (size_t)(slash - (path + 5)), "-linux-", 7) &&
	       !strncmp(slash, "/include/", 9);
}

/* What the debug information says of pc: its cache entry, NULL when the
 * module has none or ukasan.symbolize=0. */
static const struct inl_cache *debug_info_at(uintptr_t pc, int exact)
{
	static struct dwarf_inline found[SYM_INLINES_MAX];
	struct module *m = opt.symbolize ? sym_module_of(pc) : NULL;
	if (!m || !m->has_debug)
		return NULL;
	uintptr_t rel = pc - m->bias - (exact ? 0 : 1);
	for (unsigned i = 0; i < sizeof(inl_cache) / sizeof(inl_cache[0]); i++)
		if (inl_cache[i].m == m && inl_cache[i].rel == rel)
			return &inl_cache[i];
	struct inl_cache *c = &inl_cache[inl_next++ % (sizeof(inl_cache) / sizeof(inl_cache[0]))];
	c->outer[0] = 0;
	int n = m->file ? dwarf_inlines(m->file, m->size, rel, found, SYM_INLINES_MAX, c->outer,
	                                sizeof(c->outer))
	                : 0;
	if (n <= 0 && !c->outer[0] && m->dfile)
		n = dwarf_inlines(m->dfile, m->dsize, rel, found, SYM_INLINES_MAX, c->outer,
		                  sizeof(c->outer));
	c->m = m;
	c->rel = rel;
	c->in.n = n > 0 ? n : 0;
	for (int j = 0; j < c->in.n; j++) {
		fmt_buf(c->in.f[j].name, sizeof(c->in.f[j].name), "%s", found[j].name);
		/* as a symbol's offset: from the pc itself */
		c->in.f[j].off = (unsigned long)(pc - m->bias - found[j].lo);
		c->in.f[j].size = (unsigned long)(found[j].hi - found[j].lo);
		c->in.f[j].call[0] = 0;
		if (found[j].call[0])
			sym_shown_path(c->in.f[j].call, sizeof(c->in.f[j].call), found[j].call);
	}
	/* One declared in a C library header (glibc's fortify wrappers,
	 * wchar.h's mbrlen), or the interceptors' own helpers (linked into
	 * the program from libukasan_static.a), is never where a bug is: as
	 * a libc or runtime frame, not what a title or a token starts with. */
	for (int j = 0; j < c->in.n; j++) {
		c->in.f[j].runtime = strstr(found[j].decl, "/src/interceptors/") != NULL;
		c->in.f[j].libc =
		    (c_library_header(found[j].decl) && !strstr(found[j].decl, "/c++/")) ||
		    c->in.f[j].runtime;
	}
	return c;
}

const struct sym_inlined *sym_inlined_at(uintptr_t pc, int exact)
{
	const struct inl_cache *c = debug_info_at(pc, exact);
	return c && c->in.n ? &c->in : NULL;
}

int sym_debug_function_name(uintptr_t pc, int exact, char *buf, size_t cap)
{
	static struct frame_sym f;
	const struct inl_cache *c = debug_info_at(pc, exact);
	if (!c || !c->outer[0])
		return 0;
	f.found = 1;
	fmt_buf(f.name, sizeof(f.name), "%s", c->outer);
	sym_demangle(&f, 1);
	fmt_buf(buf, cap, "%s", f.name);
	return 1;
}

void sym_inline_name(const struct sym_inlined *in, int j, int title, char *buf, size_t cap)
{
	static struct frame_sym f;
	char name[1024];
	const char *raw = in->f[j].name;
	if (!raw[0]) {
		fmt_buf(buf, cap, "??");
		return;
	}
	if (title && opt.symbolizer != SYMBOLIZER_EXTERNAL &&
	    !cxx_demangle_name(raw, name, sizeof(name))) {
		fmt_buf(buf, cap, "%s", name);
		return;
	}
	f.found = 1;
	fmt_buf(f.name, sizeof(f.name), "%s", raw);
	sym_demangle(&f, 1);
	fmt_buf(buf, cap, "%s", f.name);
}

int sym_inlined_count(uintptr_t pc, int exact)
{
	const struct sym_inlined *in = sym_inlined_at(pc, exact);
	return in ? in->n : 0;
}

int sym_inlined_libc(uintptr_t pc, int exact, int j)
{
	const struct sym_inlined *in = sym_inlined_at(pc, exact);
	return in && j >= 0 && j < in->n && in->f[j].libc;
}

void sym_inlined_name(uintptr_t pc, int exact, int j, int raw, char *buf, size_t cap)
{
	const struct sym_inlined *in = sym_inlined_at(pc, exact);
	buf[0] = 0;
	if (!in || j < 0 || j >= in->n)
		return;
	if (raw)
		fmt_buf(buf, cap, "%s", in->f[j].name[0] ? in->f[j].name : "??");
	else
		sym_inline_name(in, j, 0, buf, cap);
}

int sym_frame_inlined(uintptr_t pc, int exact, int j, struct sym_info *out)
{
	static char lines[64][160];
	const struct sym_inlined *in = sym_inlined_at(pc, exact);
	if (!in || j < 0 || j >= in->n || !sym_frame(pc, exact, out))
		return 0;
	/* sym_frame filled the module's fields and the pc's line, which is
	 * the innermost function's; each one out has the call in it */
	const char *line = NULL;
	if (j > 0)
		line = in->f[j - 1].call;
	sym_inline_name(in, j, 0, out->function, sizeof(out->function));
	out->function_offset = in->f[j].off;
	if (line) {
		out->file[0] = 0;
		out->line = out->column = 0;
		fmt_buf(lines[0], sizeof(lines[0]), "%s", line);
		sym_split_line(lines[0], out);
	}
	return 1;
}

int sym_frame_outer_line(uintptr_t pc, int exact, struct sym_info *out)
{
	static char line[160];
	const struct sym_inlined *in = sym_inlined_at(pc, exact);
	if (!in)
		return 0;
	out->file[0] = 0;
	out->line = out->column = 0;
	fmt_buf(line, sizeof(line), "%s", in->f[in->n - 1].call);
	sym_split_line(line, out);
	return 1;
}

/* The innermost inlined function made the access, as ASan's title says;
 * its offset and size are in its inlined code. */
int sym_inlined_title(uintptr_t pc, int exact, char *buf, size_t cap)
{
	static char name[1024];
	const struct sym_inlined *in = sym_inlined_at(pc, exact);
	int j = 0;
	while (in && j < in->n && in->f[j].libc)
		j++;
	if (!in || j == in->n)
		return 0;
	sym_inline_name(in, j, 1, name, sizeof(name));
	fmt_buf(buf, cap, "%s+0x%lx/0x%lx", name, in->f[j].off, in->f[j].size);
	return 1;
}
