/* Itanium C++ ABI names ("_Z...") demangled in this process, in the words
 * c++filt prints, so a C++ report starts no helper program. Fixed tables, no
 * malloc, no lock but a flag: safe on the report path and in signal
 * handlers. It answers only for what it reads whole (names, templates,
 * substitutions, function, pointer, array and member types, literals,
 * lambdas, clones); anything else (expressions, decltype, exception specs)
 * is a failure for the caller to take elsewhere. */
#ifndef UKASAN_SYMBOLIZE_DEMANGLE_H
#define UKASAN_SYMBOLIZE_DEMANGLE_H

#include <stddef.h>

/* 0 and the demangled name in out (NUL-terminated), or -1: not a mangled
 * name, a form not handled, out too small, or another thread demangling. */
int cxx_demangle(const char *mangled, char *out, size_t cap);

/* A function's name alone, as the kernel's titles name a function: without
 * its return type, parameter list, qualifiers and clone suffix
 * ("ns::K::get", "main::{lambda(int)#1}::operator()"); anything else whole.
 * -1 as cxx_demangle. */
int cxx_demangle_name(const char *mangled, char *out, size_t cap);

#endif
