/* The dedup token (dedup.h). Names only, no offsets: an offset moves with
 * every rebuild and with the inlining around the bug, and libFuzzer
 * compares tokens of runs of one binary but users compare them across
 * builds too. */
#include "dedup.h"

#include <string.h>

#include "../config/log.h"
#include "../config/options.h"
#include "../symbolize/symbolize.h"
#include "frames.h"
#include "report.h"

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

/* The C library's own code (its string functions' variants, chosen by the
 * CPU, differ between machines): never where the signature starts. */
static int libc_frame(uintptr_t pc)
{
	uintptr_t off;
	const char *path = report_frame_module(pc, &off);
	if (!path)
		return 0;
	const char *b = sym_base_name(path);
	return starts(b, "libc.so") || starts(b, "libc-") || starts(b, "ld-linux") ||
	       starts(b, "libstdc++.so") || starts(b, "libm.so");
}

/* The function's name alone: sym_function's "func+0x1c/0x60" cut at its
 * last "+0x" (operator+ keeps its plus), or, for a pc in no symbol, its
 * module's base name and the offset there, which ASLR does not move. raw:
 * the symbol's name as the object has it, as no demangler's output. */
static void frame_name(uintptr_t pc, int exact, int raw, char *out, size_t cap)
{
	if (raw && sym_raw_name(pc, exact, out, cap))
		return;
	if (raw || !report_frame_name(pc, exact, out, cap)) {
		/* the instruction's own byte: a return address's one before */
		uintptr_t off;
		const char *path = report_frame_module(exact ? pc : pc - 1, &off);
		if (!path) {
			fmt_buf(out, cap, "?");
			return;
		}
		fmt_buf(out, cap, "%s+0x%lx", sym_base_name(path), (unsigned long)off);
		return;
	}
	char *cut = NULL;
	for (char *p = out; *p; p++)
		if (p[0] == '+' && p[1] == '0' && p[2] == 'x')
			cut = p;
	if (cut)
		*cut = 0;
}

/* The token's frames into buf after what it holds (len bytes): the index
 * of the first, or -1 when none. */
static int walk(const uintptr_t *pcs, int n, int first_exact, int frames, int signature, char *buf,
                size_t cap, size_t len)
{
	int taken = 0, top = -1;
	for (int i = 0; i < n && taken < frames && len + 1 < cap; i++) {
		char fn[256];
		int exact = i == 0 && first_exact;
		/* the functions inlined at the pc first, innermost first: a
		 * frame each, as in ASan's token */
		int ninl = sym_inlined_count(pcs[i], exact);
		for (int j = 0; j <= ninl && taken < frames && len + 1 < cap; j++) {
			if (j < ninl)
				sym_inlined_name(pcs[i], exact, j, signature, fn, sizeof(fn));
			else
				frame_name(pcs[i], exact, signature, fn, sizeof(fn));
			if (taken == 0 &&
			    (runtime_frame(fn) || (signature && libc_frame(pcs[i])) ||
			     (j < ninl && sym_inlined_libc(pcs[i], exact, j))))
				continue;
			if (top < 0)
				top = i;
			len += fmt_buf(buf + len, cap - len, "%s%s", len ? "--" : "", fn);
			if (len >= cap)
				len = cap - 1;
			taken++;
			/* Above the fuzz target is the fuzzer's own loop, which
			 * differs between fuzzing and replaying one input
			 * (libFuzzer's MutateAndTestOne and RunOneTest): the
			 * same bug must match. */
			if (starts(fn, "LLVMFuzzerTestOneInput") || same(fn, "main"))
				return top;
		}
	}
	return top;
}

void dedup_token(const char *bug_type, const uintptr_t *pcs, int n, int first_exact, int frames,
                 char *buf, size_t cap)
{
	size_t len = 0;
	buf[0] = 0;
	if (bug_type)
		len = fmt_buf(buf, cap, "%s", bug_type);
	walk(pcs, n, first_exact, frames, 0, buf, cap, len);
}

uint64_t dedup_signature(const char *bug_type, const char *access, const uintptr_t *pcs, int n,
                         int first_exact)
{
	static char key[1200]; /* under the report lock */
	size_t len =
	    fmt_buf(key, sizeof(key), "%s|%s|", bug_type ? bug_type : "", access ? access : "");
	int top = walk(pcs, n, first_exact, 3, 1, key, sizeof(key), len);
	len = strlen(key);
	if (top >= 0)
		fmt_buf(key + len, sizeof(key) - len, "|%d",
		        sym_line_always(pcs[top], top == 0 && first_exact));
	/* FNV-1a, 64 bits: the key's text alone decides it; then a mix
	 * (splitmix64's), so that keys differing in their last byte do not
	 * give signatures differing in a few bits only. */
	uint64_t h = 0xcbf29ce484222325ull;
	for (const unsigned char *p = (const unsigned char *)key; *p; p++)
		h = (h ^ *p) * 0x100000001b3ull;
	h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9ull;
	h = (h ^ (h >> 27)) * 0x94d049bb133111ebull;
	return h ^ (h >> 31);
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
