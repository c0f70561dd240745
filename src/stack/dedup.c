/* The dedup token (dedup.h). Names only, no offsets: an offset moves with
 * every rebuild and with the inlining around the bug, and libFuzzer
 * compares tokens of runs of one binary but users compare them across
 * builds too. */
#include "dedup.h"

#include "../config/log.h"
#include "../config/options.h"
#include "symbolize.h"

static int starts(const char *s, const char *prefix)
{
	while (*prefix)
		if (*s++ != *prefix++)
			return 0;
	return 1;
}

static int same(const char *a, const char *b)
{
	while (*a && *a == *b)
		a++, b++;
	return *a == *b;
}

/* Frames a bug is never the fault of: the runtime's entry points and
 * interceptors (in the program when linked from libukasan_static.a, so the
 * module does not tell), and the allocator's, which a bad free passes
 * through. Mangled names too: ukasan.symbolize=off leaves C++ ones so. */
static int runtime_frame(const char *fn)
{
	static const char *const prefixes[] = {
	    "__asan_",   "__interceptor_", "__sanitizer_", "__ubsan_",        "__kasan",
	    "__hwasan_", "ukasan_",        "operator new", "operator delete", "_Znw",
	    "_Zna",      "_Zdl",           "_Zda"};
	static const char *const names[] = {
	    "malloc",       "free",     "calloc",        "realloc",
	    "reallocarray", "memalign", "aligned_alloc", "posix_memalign",
	    "valloc",       "pvalloc",  "cfree",         "malloc_usable_size"};
	for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
		if (starts(fn, prefixes[i]))
			return 1;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (same(fn, names[i]))
			return 1;
	return 0;
}

/* The function's name alone: sym_function's "func+0x1c/0x60" cut at its
 * last "+0x" (operator+ keeps its plus), or, for a pc in no symbol, its
 * module's base name and the offset there, which ASLR does not move. */
static void frame_name(uintptr_t pc, int exact, char *out, size_t cap)
{
	sym_function(pc, exact, out, cap);
	if (out[0] == '0' && out[1] == 'x') {
		struct sym_info info;
		if (!sym_info(exact ? pc : pc - 1, &info)) {
			fmt_buf(out, cap, "?");
			return;
		}
		const char *base = info.module;
		for (const char *p = info.module; *p; p++)
			if (*p == '/')
				base = p + 1;
		fmt_buf(out, cap, "%s+0x%lx", base, (unsigned long)info.module_offset);
		return;
	}
	char *cut = NULL;
	for (char *p = out; *p; p++)
		if (p[0] == '+' && p[1] == '0' && p[2] == 'x')
			cut = p;
	if (cut)
		*cut = 0;
}

void dedup_token(const char *bug_type, const uintptr_t *pcs, int n, int first_exact, int frames,
                 char *buf, size_t cap)
{
	size_t len = 0;
	buf[0] = 0;
	if (bug_type)
		len = fmt_buf(buf, cap, "%s", bug_type);
	int taken = 0;
	for (int i = 0; i < n && taken < frames && len + 1 < cap; i++) {
		char fn[256];
		frame_name(pcs[i], i == 0 && first_exact, fn, sizeof(fn));
		if (taken == 0 && runtime_frame(fn))
			continue;
		len += fmt_buf(buf + len, cap - len, "%s%s", len ? "--" : "", fn);
		if (len >= cap)
			len = cap - 1;
		taken++;
		/* Above the fuzz target is the fuzzer's own loop, which differs
		 * between fuzzing and replaying one input (libFuzzer's
		 * MutateAndTestOne and RunOneTest): the same bug must match. */
		if (starts(fn, "LLVMFuzzerTestOneInput") || same(fn, "main"))
			break;
	}
}

void dedup_print(const char *bug_type, const uintptr_t *pcs, int n, int first_exact)
{
	if (!opt.dedup_token_length)
		return;
	static char token[1024]; /* under the report lock: a signal stack is small */
	dedup_token(bug_type, pcs, n, first_exact, (int)opt.dedup_token_length, token,
	            sizeof(token));
	report_printf("DEDUP_TOKEN: %s\n", token);
}
