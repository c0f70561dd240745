/* What symbolize.c shares with sym_frame.c inside symbolize/: the loaded
 * objects' table and the steps of symbolizing one pc. */
#ifndef UKASAN_SYMBOLIZE_SYMBOLIZE_IMPL_H
#define UKASAN_SYMBOLIZE_SYMBOLIZE_IMPL_H

#include <link.h>
#include <stddef.h>
#include <stdint.h>

struct module {
	uintptr_t start, end, bias;
	char path[256];
	const unsigned char *file, *dfile; /* dfile: the debug file by build-id */
	size_t size, dsize;
	const ElfW(Sym) * syms;
	size_t nsyms;
	const char *strs;
	size_t strsz;
	int has_debug;
	int loaded; /* symbols looked for (files opened) */
	char build_id[41];
};

struct frame_sym {
	struct module *m;
	int found;
	unsigned long off, size;
	char name[256];
};

struct module *sym_module_of(uintptr_t pc);
void sym_lookup(uintptr_t pc, int exact, struct frame_sym *f);
void sym_demangle(struct frame_sym *fs, int n);
/* file:line for one module's frames, as ukasan.symbolize says; the
 * in-process reader alone (-1 when it cannot read them). */
void sym_lines_of(struct module *m, const uintptr_t *pcs, int n, int first_exact,
                  char lines[][160]);
/* The same for a whole stack (at most 64 frames), each module once. */
void sym_lines_all(const uintptr_t *pcs, int n, int first_exact, char lines[][160]);
int sym_lines_internal(struct module *m, const uintptr_t *pcs, int n, int first_exact,
                       char lines[][160]);

/* The functions inlined at a frame's pc, innermost first (dwarf_info.c),
 * each a frame of its own in reports as in AddressSanitizer's. */
#define SYM_INLINES_MAX 16
struct sym_inlined {
	int n;
	struct {
		char name[256];          /* as the debug information has it (mangled) */
		unsigned long off, size; /* the pc in the inlined code's range */
		char call[160];          /* file:line of its call, "" unknown */
		int libc;                /* its code is in a C library header */
		int runtime;             /* the interceptors' own helper: never printed */
	} f[SYM_INLINES_MAX];
};
/* NULL when none, or ukasan.symbolize=0. Cached: the same pcs are asked
 * for by the title, the stacks, the token and the JSON line. With the
 * report lock held; valid until the next call. */
const struct sym_inlined *sym_inlined_at(uintptr_t pc, int exact);
/* The name the debug information gives the function pc is in (not one
 * inlined there), demangled as the symbols are: its linkage name, else its
 * plain name, as GCC's AddressSanitizer names a frame (libbacktrace) and
 * unlike its symbol at times: GCC gives a function in an anonymous
 * namespace no linkage name ("ReconstructGlyf", the symbol
 * "woff2::(anonymous namespace)::ReconstructGlyf(...)"), nor a clone its
 * suffix. 0 when unknown. With the report lock held. */
int sym_debug_function_name(uintptr_t pc, int exact, char *buf, size_t cap);
/* Its frame j's name as a report's frame shows it (demangled as the
 * symbols are), or for a title (a C++ name without its parameters). */
void sym_inline_name(const struct sym_inlined *in, int j, int title, char *buf, size_t cap);
/* A file name as the frames show it: under the current directory,
 * relative to it. */
void sym_shown_path(char *dst, size_t cap, const char *path);
/* "name+0xOFF/0xSIZE" of the innermost for a title; 0 when none. */
int sym_inlined_title(uintptr_t pc, int exact, char *buf, size_t cap);
/* Forget the inlined functions known, as objects come and go. */
void sym_inlines_forget(void);

#endif
