/* Finding functions in the loaded objects without the dynamic linker's lock
 * and without allocating, for the paths where dlsym is not allowed. */
#ifndef UKASAN_PLATFORM_DYNLINK_H
#define UKASAN_PLATFORM_DYNLINK_H

#include <stddef.h>
#include <stdint.h>
#include <link.h>

struct link_map;

/* The object that holds addr, or NULL. */
const struct link_map *dl_object_of(const void *addr);
/* glibc's libc.so (the object of gnu_get_libc_version, a function only
 * glibc defines), or NULL. */
const struct link_map *dl_libc_object(void);
/* The first object in the search order: the program. */
const struct link_map *dl_first_object(void);
/* The function name as object l defines it (default version), or NULL. */
void *dl_lookup(const struct link_map *l, const char *name);
/* The variable name as object l exports it (default version, global: not
 * weak, not unique), or NULL: a definition other objects bind to. */
void *dl_lookup_object(const struct link_map *l, const char *name);
/* The name of the variable l exports (as dl_lookup_object takes it) at
 * addr, or NULL: a linear walk of its dynamic symbol table. */
const char *dl_object_name_at(const struct link_map *l, const void *addr);
/* Whether l references name without defining it (an undefined symbol in
 * its dynamic symbol table): a linear walk of the table. */
int dl_imports(const struct link_map *l, const char *name);
/* The first definition of name in the objects after the one holding self,
 * in load order: what dlsym(RTLD_NEXT, name) finds from self's object. */
void *dl_next_definition(const void *self, const char *name, const struct link_map **where);
/* The first global (not weak) definition of the function name, in load
 * order: a program's own, not a sanitizer runtime's weak default. */
void *dl_first_strong_definition(const char *name, const struct link_map **where);
/* The definition every other object binds to. */
void *dl_first_definition(const char *name, const struct link_map **where);
/* Object l's constructors (DT_INIT_ARRAY), as the loader runs them: the
 * count, and the array in *arr. */
size_t dl_init_array(const struct link_map *l, void (*const **arr)(void));
/* The program's headers as the kernel passed them (AT_PHDR): their count,
 * the headers in *phdrs and the load bias in *bias; -1 when unknown. */
int dl_program_phdrs(const ElfW(Phdr) * *phdrs, uintptr_t *bias);
/* The program's executable segment, [*lo, *hi): 0 when unknown. */
int dl_program_text(uintptr_t *lo, uintptr_t *hi);
/* 1 when ip is in this library's own code. */
int dl_own_text(uintptr_t ip);

#endif
