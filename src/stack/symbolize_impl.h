/* What symbolize.c shares with sym_frame.c inside stack/: the loaded
 * objects' table and the steps of symbolizing one pc. */
#ifndef UKASAN_STACK_SYMBOLIZE_IMPL_H
#define UKASAN_STACK_SYMBOLIZE_IMPL_H

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

#endif
