/* A report's stacks (frames.h): each frame symbolized once per report,
 * for the kernel's frames, AddressSanitizer's, the DEDUP token and ASan's
 * lines; and a frame's module and offset computed in one place. */
#include "frames.h"

#include <string.h>

#include "../base/compiler.h"
#include "../config/log.h"
#include "../config/options.h"
#include "../platform/os.h"
#include "../symbolize/symbolize.h"
#include "../symbolize/symbolize_impl.h"
#include "report.h"

/* The frames of the report in progress, under the report lock: a report's
 * stacks share most frames (the access's and the allocation's reach main
 * alike), and each is read for the text, ASan's form, the token and ASan's
 * lines. Forgotten as the next report begins (report_frames_forget). */
struct cached_frame {
	uintptr_t pc;
	int exact;
	struct frame_sym fs; /* demangled as the text shows it */
	char line[160];      /* "file:line", "" when not known */
};
#define CACHED_FRAMES 192
static struct cached_frame cache[CACHED_FRAMES];
static int ncached;
/* A stack symbolized whole when the cache has no room for it. */
static struct cached_frame scratch[FRAMES_MAX];

void report_frames_forget(void)
{
	ncached = 0;
}

static struct cached_frame *cached(uintptr_t pc, int exact)
{
	for (int i = 0; i < ncached; i++)
		if (cache[i].pc == pc && cache[i].exact == exact)
			return &cache[i];
	return NULL;
}

/* The frames of a stack (at most FRAMES_MAX), symbolized once: the
 * symbols, the C++ names, the file:line of each module's frames in one
 * pass. Valid until the next call. */
static int frames_of(const uintptr_t *pcs, int n, int first_exact, const struct cached_frame **out)
{
	static uintptr_t todo[FRAMES_MAX];
	static char lines[FRAMES_MAX][160];
	static struct frame_sym fs[FRAMES_MAX];
	if (n > FRAMES_MAX)
		n = FRAMES_MAX;
	int missing = 0;
	for (int i = 0; i < n; i++)
		missing |= !(out[i] = cached(pcs[i], i == 0 && first_exact));
	if (!missing)
		return n;
	for (int i = 0; i < n; i++)
		todo[i] = pcs[i];
	sym_lines_all(todo, n, first_exact, lines);
	for (int i = 0; i < n; i++)
		sym_lookup(pcs[i], i == 0 && first_exact, &fs[i]);
	sym_demangle(fs, n);
	for (int i = 0; i < n; i++) {
		if (out[i])
			continue;
		struct cached_frame *c = ncached < CACHED_FRAMES ? &cache[ncached++] : &scratch[i];
		c->pc = pcs[i];
		c->exact = i == 0 && first_exact;
		c->fs = fs[i];
		rt_memcpy(c->line, lines[i], sizeof(c->line));
		out[i] = c;
	}
	return n;
}

/* The one place a report computes a frame's module and offset: the
 * module's path (NULL: pc is in none) and pc's offset from its load bias.
 * Each form adds what it shows: the kernel's frames and AddressSanitizer's
 * one for a faulting pc (its byte before is in the instruction, as a
 * return address's is), the DEDUP token one less (the instruction's own
 * byte). */
const char *report_frame_module(uintptr_t pc, uintptr_t *offset)
{
	return sym_module_path(pc, offset);
}

static uintptr_t shown_offset(const struct cached_frame *f)
{
	uintptr_t off = 0;
	report_frame_module(f->pc, &off);
	return off + (f->exact ? 1 : 0);
}

/* "func+0xOFF/0xSIZE", or the bare address. */
static size_t describe(uintptr_t pc, const struct frame_sym *f, char *buf, size_t cap)
{
	if (!f->found)
		return fmt_buf(buf, cap, "0x%lx", (unsigned long)pc);
	return fmt_buf(buf, cap, "%s+0x%lx/0x%lx", f->name, f->off, f->size);
}

int report_frame_name(uintptr_t pc, int exact, char *buf, size_t cap)
{
	const struct cached_frame *f[1];
	frames_of(&pc, 1, exact, f);
	if (!f[0]->fs.found) {
		buf[0] = 0;
		return 0;
	}
	describe(pc, &f[0]->fs, buf, cap);
	return 1;
}

int report_frame_info(uintptr_t pc, int exact, int inl, struct sym_info *out)
{
	static char text[160];
	const struct cached_frame *f[1];
	rt_memset(out, 0, sizeof(*out));
	frames_of(&pc, 1, exact, f);
	const struct frame_sym *fs = &f[0]->fs;
	if (!fs->m)
		return 0;
	const struct sym_inlined *in = sym_inlined_at(pc, exact);
	const char *line = f[0]->line;
	if (inl >= 0) {
		if (!in || inl >= in->n)
			return 0;
		/* the pc's line is the innermost one's; each one out has the
		 * call in it */
		sym_inline_name(in, inl, 0, out->function, sizeof(out->function));
		out->function_offset = in->f[inl].off;
		if (inl > 0)
			line = in->f[inl - 1].call;
	} else {
		if (fs->found) {
			fmt_buf(out->function, sizeof(out->function), "%s", fs->name);
			out->function_offset = fs->off;
		}
		if (in && in->n) /* the real function's: the outermost's call */
			line = in->f[in->n - 1].call;
	}
	fmt_buf(out->module, sizeof(out->module), "%s", fs->m->path);
	fmt_buf(out->build_id, sizeof(out->build_id), "%s", fs->m->build_id);
	out->module_offset = shown_offset(f[0]);
	fmt_buf(text, sizeof(text), "%s", line);
	sym_split_line(text, out);
	return 1;
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
		/* The interceptor (memcpy) is one frame, as ASan's is: a helper
		 * inlined into it would be the first frame a reader takes
		 * (ClusterFuzz's crash state began "check_range"). */
		if (in->f[j].runtime) {
			*line = in->f[j].call;
			continue;
		}
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
	static const struct cached_frame *fr[FRAMES_MAX];
	static char frame[512];
	n = frames_of(pcs, n, first_exact, fr);
	for (int i = 0; i < n; i++) {
		const struct frame_sym *fs = &fr[i]->fs;
		struct module *m = fs->m;
		const char *line = fr[i]->line;
		print_inlined(pcs[i], fr[i]->exact, pc_indent, &line);
		size_t k = describe(pcs[i], fs, frame, sizeof(frame));
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
			k += fmt_buf(frame + k, sizeof(frame) - k, " [%s+0x%lx",
			             sym_base_name(m->path), (unsigned long)shown_offset(fr[i]));
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

static int word(const char *s)
{
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || *s == '_'))
			return 0;
	return 1;
}

/* Whether a frame so named needs the stack in ASan's form: not a word, or
 * a fuzz target's entry, which ClusterFuzz's parser names by its file (the
 * target's) only in ASan's form and drops from the kernel's, so that a short
 * stack's crash state lost a frame ASan's has ("ares_create_query /
 * c-ares.c / ..."). */
static int asan_form_needed(const char *name)
{
	return !word(name) || !strcmp(name, "LLVMFuzzerTestOneInput");
}

/* A function's name as llvm-symbolizer gives ASan's frames, from the debug
 * information: without the suffix GCC gives a clone's symbol
 * ("xstrpisotime.constprop.0", C++'s "f(int) [clone .isra.0]"), which
 * ClusterFuzz's parser kept in the crash state (libarchive's WARC overflow:
 * "xstrpisotime.constprop.0 / _warc_rdrtm / ...", ASan's "xstrpisotime / ..."). */
static const char *asan_name(const char *sym)
{
	static const char *const tags[] = {"constprop.", "isra.",     "part.",
	                                   "cold",       "lto_priv.", "localalias"};
	static char buf[256];
	const char *cut = strstr(sym, " [clone .");
	for (const char *dot = strchr(sym, '.'); !cut && dot && dot != sym && !strchr(sym, '(');
	     dot = strchr(dot + 1, '.'))
		for (unsigned t = 0; t < sizeof(tags) / sizeof(tags[0]); t++)
			if (!strncmp(dot + 1, tags[t], strlen(tags[t])))
				cut = dot;
	if (!cut)
		return sym;
	size_t n = (size_t)(cut - sym) < sizeof(buf) ? (size_t)(cut - sym) : sizeof(buf) - 1;
	memcpy(buf, sym, n);
	buf[n] = 0;
	return buf;
}

int report_sanitizer_stack_needed(const uintptr_t *pcs, int n, int first_exact)
{
	static const struct cached_frame *fr[FRAMES_MAX];
	static char name[256];
	n = frames_of(pcs, n, first_exact, fr);
	for (int i = 0; i < n; i++) {
		if (fr[i]->fs.found && asan_form_needed(fr[i]->fs.name))
			return 1;
		const struct sym_inlined *in = sym_inlined_at(pcs[i], fr[i]->exact);
		for (int j = 0; in && j < in->n; j++) {
			sym_inline_name(in, j, 0, name, sizeof(name));
			if (asan_form_needed(name))
				return 1;
		}
	}
	return 0;
}

void report_sanitizer_stack(const uintptr_t *pcs, int n, int first_exact)
{
	static const struct cached_frame *fr[FRAMES_MAX];
	static char frame[512], name[256];
	n = frames_of(pcs, n, first_exact, fr);
	/* A function inlined at a pc is a frame of its own, numbered on, with
	 * the same pc, as ASan prints it: the innermost has the pc's line,
	 * each one out the line of the call in it. */
	for (int i = 0, no = 0; i < n; i++, no++) {
		uintptr_t pc = pcs[i];
		const struct frame_sym *fs = &fr[i]->fs;
		const char *line = fr[i]->line;
		const struct sym_inlined *in = sym_inlined_at(pc, fr[i]->exact);
		for (int j = 0; in && j < in->n; j++) {
			if (!in->f[j].runtime) { /* not printed, as in print_inlined */
				sym_inline_name(in, j, 0, name, sizeof(name));
				report_printf("    #%d 0x%lx in %s%s%s\n", no++, (unsigned long)pc,
				              name, line[0] ? " " : "", line);
			}
			line = in->f[j].call;
		}
		size_t k = fmt_buf(frame, sizeof(frame), "    #%d 0x%lx", no, (unsigned long)pc);
		/* named from the debug information, as the inlined frames
		 * are, else the symbol: the woff2 overflow built by gcc had
		 * "woff2::(anonymous namespace)::ReconstructGlyf(...)" as its
		 * third frame, ASan "ReconstructGlyf" (ClusterFuzz's state) */
		if (sym_debug_function_name(pc, fr[i]->exact, name, sizeof(name)))
			k += fmt_buf(frame + k, sizeof(frame) - k, " in %s", name);
		else if (fs->found)
			k += fmt_buf(frame + k, sizeof(frame) - k, " in %s", asan_name(fs->name));
		if (line[0])
			fmt_buf(frame + k, sizeof(frame) - k, " %s", line);
		else if (fs->m)
			fmt_buf(frame + k, sizeof(frame) - k, " (%s+0x%lx)", fs->m->path,
			        (unsigned long)shown_offset(fr[i]));
		report_printf("%s\n", frame);
	}
}
