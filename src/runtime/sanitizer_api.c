/* The sanitizers' common interface, <sanitizer/common_interface_defs.h>:
 * stacks, symbols, where reports go, fibers and contiguous containers.
 * __sanitizer_sandbox_on_notify is in sandbox.c, the death callback with
 * the report path. The user's hooks that the header declares
 * (__sanitizer_weak_hook_*) are the program's to define, not ours. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "../base/compiler.h"
#include "../config/log.h"
#include "../kasan/kasan.h"
#include "../kasan/asan_interface.h"
#include "../platform/dynlink.h"
#include "../report/dump.h"
#include "../report/report.h"
#include "../report/sink.h"
#include "../stack/stack.h"
#include "../symbolize/symbolize.h"
#include "init.h"

/* The current stack, as a report's call trace. */
UKASAN_EXPORT void __sanitizer_print_stack_trace(void)
{
	uintptr_t pcs[STACK_MAX_FRAMES];
	int n = stack_capture(pcs, STACK_MAX_FRAMES);
	report_begin();
	dump_trace(pcs, n, 0);
	report_end();
}

static char report_path[256];

/* As ASan's log_path: "stderr" (and "stdout": reports never go there)
 * mean stderr, anything else PATH.PID. */
UKASAN_EXPORT void __sanitizer_set_report_path(const char *path)
{
	if (path && !strcmp(path, "stdout"))
		path = "stderr";
	sink_set_path(path);
	fmt_buf(report_path, sizeof(report_path), "%s", path && strcmp(path, "stderr") ? path : "");
}

UKASAN_EXPORT const char *__sanitizer_get_report_path(void)
{
	return report_path[0] ? report_path : NULL;
}

/* ASan takes a descriptor as a pointer. Only the standard streams have a
 * meaning here (reports go to stderr, never stdout); any other descriptor
 * says so once and reports stay where they were. */
UKASAN_EXPORT void __sanitizer_set_report_fd(void *fd)
{
	uintptr_t n = (uintptr_t)fd;
	if (n == 1 || n == 2) {
		sink_set_path(NULL);
		report_path[0] = 0;
		return;
	}
	log_printf("ukasan: __sanitizer_set_report_fd(%lu) is not supported (reports go to "
	           "stderr or ukasan.log_path); ignored\n",
	           (unsigned long)n);
}

UKASAN_EXPORT void __sanitizer_report_error_summary(const char *error_summary)
{
	if (error_summary)
		log_printf("%s\n", error_summary);
}

/* A program that defines its own __sanitizer_report_error_summary gets
 * each report's summary line, as from ASan; ours prints nothing unasked
 * (the kernel's format has no such line). A weak one is a sanitizer
 * runtime's default (clang's UBSan runtime, linked for coverage, has one
 * that rewrote ASan's log_path file, and honggfuzz found no report in it). */
void sanitizer_summary_init(void)
{
	void (*fn)(const char *) = (void (*)(const char *))dl_first_strong_definition(
	    "__sanitizer_report_error_summary", NULL);
	/* Not compared with our function's address, which the GOT gives as
	 * the program's own when it has one. */
	if (fn &&
	    dl_object_of((const void *)fn) != dl_object_of((const void *)sanitizer_summary_init))
		report_set_summary_callback(fn);
}

UKASAN_EXPORT int __sanitizer_acquire_crash_state(void)
{
	static int taken;
	return !__atomic_exchange_n(&taken, 1, __ATOMIC_ACQ_REL);
}

/* A live-heap profile is a leak checker's walk (kmemleak, a later issue):
 * nothing is printed yet. */
UKASAN_EXPORT void __sanitizer_print_memory_profile(size_t top_percent,
                                                    size_t max_number_of_contexts)
{
	(void)top_percent;
	(void)max_number_of_contexts;
}

/* clang's <sanitizer/coverage_interface.h>: ASan writes .sancov files of
 * -fsanitize-coverage's pcs with coverage=1; ukasan collects no coverage,
 * so there is nothing to dump or reset. (The __sanitizer_cov_trace_*
 * callbacks that -fsanitize-coverage emits are the program's or
 * libFuzzer's to define.) */
UKASAN_EXPORT void __sanitizer_cov_dump(void)
{
}

UKASAN_EXPORT void __sanitizer_cov_reset(void)
{
}

UKASAN_EXPORT void __sanitizer_dump_coverage(const uintptr_t *pcs, uintptr_t len)
{
	(void)pcs;
	(void)len;
}

/* ASan's instrumentation misses unaligned accesses in some forms; these
 * check the whole access, then make it. */
#define UNALIGNED(bits)                                                                            \
	UKASAN_EXPORT uint##bits##_t __sanitizer_unaligned_load##bits(const void *p)               \
	{                                                                                          \
		uint##bits##_t v;                                                                  \
		if (kasan_enabled)                                                                 \
			kasan_check_range((uintptr_t)p, bits / 8, 0,                               \
			                  (uintptr_t)__builtin_return_address(0));                 \
		__builtin_memcpy(&v, p, sizeof(v));                                                \
		return v;                                                                          \
	}                                                                                          \
	UKASAN_EXPORT void __sanitizer_unaligned_store##bits(void *p, uint##bits##_t v)            \
	{                                                                                          \
		if (kasan_enabled)                                                                 \
			kasan_check_range((uintptr_t)p, bits / 8, 1,                               \
			                  (uintptr_t)__builtin_return_address(0));                 \
		__builtin_memcpy(p, &v, sizeof(v));                                                \
	}
UNALIGNED(16)
UNALIGNED(32)
UNALIGNED(64)

/* Symbols, in ASan's format directives. */
struct out {
	char *buf;
	size_t cap, len;
};

static void put(struct out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(struct out *o, const char *fmt, ...)
{
	if (o->len + 1 >= o->cap)
		return;
	va_list ap;
	va_start(ap, fmt);
	o->len += fmt_vbuf(o->buf + o->len, o->cap - o->len, fmt, ap);
	va_end(ap);
	if (o->len >= o->cap)
		o->len = o->cap - 1;
}

/* ASan's symbolizer formats: text as it is, "%%", and the directives
 * directive() knows; an unknown one is copied as written. */
static void format(struct out *o, const char *fmt,
                   int (*directive)(struct out *o, char d, void *arg), void *arg)
{
	for (const char *f = fmt; f && *f; f++) {
		if (*f != '%' || !f[1])
			put(o, "%c", *f);
		else if (*++f == '%')
			put(o, "%%");
		else if (!directive(o, *f, arg))
			put(o, "%%%c", *f);
	}
}

static void location(struct out *o, const struct sym_info *s)
{
	put(o, "%s", s->file);
	if (s->line)
		put(o, ":%d", s->line);
	if (s->column)
		put(o, ":%d", s->column);
}

struct pc_info {
	void *pc;
	int known;
	const struct sym_info *s;
};

static int pc_directive(struct out *o, char d, void *arg)
{
	const struct pc_info *p = arg;
	const struct sym_info *s = p->s;
	switch (d) {
	case 'n':
		put(o, "0");
		break;
	case 'p':
		put(o, "%p", p->pc);
		break;
	case 'm':
		put(o, "%s", s->module);
		break;
	case 'o':
		put(o, "0x%lx", (unsigned long)s->module_offset);
		break;
	case 'f':
		put(o, "%s", s->function);
		break;
	case 'q':
		if (s->function[0])
			put(o, "0x%lx", s->function_offset);
		break;
	case 's':
		put(o, "%s", s->file);
		break;
	case 'l':
		put(o, "%d", s->line);
		break;
	case 'c':
		put(o, "%d", s->column);
		break;
	case 'F':
		if (s->function[0]) {
			put(o, "in %s", s->function);
			if (!s->file[0])
				put(o, "+0x%lx", s->function_offset);
		}
		break;
	case 'S':
		location(o, s);
		break;
	case 'L':
		if (s->file[0])
			location(o, s);
		else if (p->known)
			put(o, "(%s+0x%lx)", sym_base_name(s->module),
			    (unsigned long)s->module_offset);
		else
			put(o, "(<unknown module>)");
		break;
	case 'M':
		if (p->known)
			put(o, "(%s+0x%lx)", sym_base_name(s->module),
			    (unsigned long)s->module_offset);
		else
			put(o, "(%p)", p->pc);
		break;
	default:
		return 0;
	}
	return 1;
}

UKASAN_EXPORT void __sanitizer_symbolize_pc(void *pc, const char *fmt, char *out_buf,
                                            size_t out_buf_size)
{
	static struct sym_info s;
	if (!out_buf || !out_buf_size)
		return;
	struct out o = {out_buf, out_buf_size, 0};
	out_buf[0] = 0;
	report_hold();
	struct pc_info p = {pc, sym_info((uintptr_t)pc, &s), &s};
	format(&o, fmt, pc_directive, &p);
	report_release();
}

struct global_info {
	const char *name, *file;
	int line;
};

static int global_directive(struct out *o, char d, void *arg)
{
	const struct global_info *g = arg;
	if (d == 'g')
		put(o, "%s", g->name ? g->name : "");
	else if (d == 's')
		put(o, "%s", g->file ? g->file : "");
	else if (d == 'l')
		put(o, "%d", g->line);
	else
		return 0;
	return 1;
}

/* Globals KASAN registered (generic mode): %g its name, %s its file, %l
 * its line; nothing for others. */
UKASAN_EXPORT void __sanitizer_symbolize_global(void *data_ptr, const char *fmt, char *out_buf,
                                                size_t out_buf_size)
{
	struct global_info g;
	uintptr_t beg;
	size_t size;
	if (!out_buf || !out_buf_size)
		return;
	out_buf[0] = 0;
	if (!kasan_global_at((uintptr_t)data_ptr, &g.name, &g.file, &g.line, &beg, &size))
		return;
	struct out o = {out_buf, out_buf_size, 0};
	format(&o, fmt, global_directive, &g);
}

UKASAN_EXPORT int __sanitizer_get_module_and_offset_for_pc(void *pc, char *module_path,
                                                           size_t module_path_len, void **pc_offset)
{
	static struct sym_info s;
	report_hold();
	int known = sym_info((uintptr_t)pc, &s);
	if (known && module_path && module_path_len)
		fmt_buf(module_path, module_path_len, "%s", s.module);
	if (known && pc_offset)
		*pc_offset = (void *)s.module_offset;
	report_release();
	return known;
}
