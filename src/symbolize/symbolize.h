/* Turning return addresses into "func+0xOFF/0xSIZE file:line [module]".
 * Symbols come from the ELF files themselves (mapped read-only, parsed with
 * bounds checks); file:line from their DWARF line tables (dwarf_line.c), or
 * from llvm-symbolizer or addr2line for an object that reader cannot answer
 * for, and C++ names from c++filt, each helper run with vfork. No malloc, no
 * loader locks. */
#ifndef UKASAN_SYMBOLIZE_SYMBOLIZE_H
#define UKASAN_SYMBOLIZE_SYMBOLIZE_H

#include <stddef.h>
#include <stdint.h>

/* "func+0x1c/0x60", or "0x7f..." when unknown. exact: pc
 * is the faulting instruction rather than a return address. */
void sym_function(uintptr_t pc, int exact, char *buf, size_t cap);

/* The bare name ("func", "ns::K::get(char*, int)"), or "" when unknown. */
void sym_function_name(uintptr_t pc, int exact, char *buf, size_t cap);

/* The same for a report's title: a C++ function named without its
 * parameter list ("ns::K::get+0x1c/0x60"), as the kernel's titles and
 * syzkaller's read them (one with a parameter list is no function name
 * to syzkaller, and its title took the offsets in). */
void sym_title_function(uintptr_t pc, int exact, char *buf, size_t cap);

/* A path's last component: module names in frames and tokens. */
const char *sym_base_name(const char *path);

/* Read every loaded object's symbols and find the helper programs now,
 * before the process sandboxes itself; with the report lock held. */
void sym_prepare_sandbox(void);

/* Drop what is known of objects no longer loaded; with the report lock. */
void sym_forget_unloaded(void);

/* One pc, in parts, for ASan's __sanitizer_symbolize_pc: the function
 * (demangled) and the pc's offset in it, file and line when the object has
 * debug information, the module's path and the pc's offset in it. 0 when
 * pc is in no loaded object. With the report lock held. */
struct sym_info {
	char function[256];
	unsigned long function_offset;
	char file[160];
	int line, column;
	char module[256];
	uintptr_t module_offset;
	char build_id[41]; /* sym_frame's: hex, "" when the module has none */
};
int sym_info(uintptr_t pc, struct sym_info *out);
/* The same for a report's frame: exact (a faulting pc) or a return
 * address, whose module_offset is the one the text prints, and the
 * module's build-id. */
int sym_frame(uintptr_t pc, int exact, struct sym_info *out);
/* "file:line" or "file:line:column" (text, which it cuts) into out's file,
 * line and column. */
void sym_split_line(char *text, struct sym_info *out);
/* Frame j of the functions inlined at pc (innermost first), in parts as
 * sym_frame's: the inlined function, its line; 0 when there is none. */
int sym_frame_inlined(uintptr_t pc, int exact, int j, struct sym_info *out);
/* For a pc with inlined functions, the real function's line in out (that
 * of the outermost one's call); 0, out untouched, when none. */
int sym_frame_outer_line(uintptr_t pc, int exact, struct sym_info *out);
/* The symbol's name as the object has it (mangled), no helper run; 0 when
 * pc is in no symbol. */
int sym_raw_name(uintptr_t pc, int exact, char *buf, size_t cap);
/* The line of pc from its module's DWARF line table, read in-process
 * whatever ukasan.symbolize says (a signature must not depend on it); 0
 * when unknown. With the report lock held. */
int sym_line_always(uintptr_t pc, int exact);
/* The number of functions inlined at pc (0 when none or unknown), and
 * the name of the j-th, innermost first: demangled as sym_function_name's,
 * or raw (mangled, as the debug information has it) for a signature. With
 * the report lock held. */
int sym_inlined_count(uintptr_t pc, int exact);
void sym_inlined_name(uintptr_t pc, int exact, int j, int raw, char *buf, size_t cap);
/* Whether the j-th is a C library header's (a fortify wrapper): never the
 * frame a title or a token starts with. */
int sym_inlined_libc(uintptr_t pc, int exact, int j);
/* The path of pc's module and pc's offset there; NULL when in none. */
const char *sym_module_path(uintptr_t pc, uintptr_t *offset);
#endif
