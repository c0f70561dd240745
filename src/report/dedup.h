/* A report's signature for fuzzers (libFuzzer's DEDUP_TOKEN line, as
 * sanitizer_common prints it with dedup_token_length): the same bug gives
 * the same token across runs, builds' load addresses and ASLR; different
 * bugs, different tokens. */
#ifndef UKASAN_REPORT_DEDUP_H
#define UKASAN_REPORT_DEDUP_H

#include <stddef.h>
#include <stdint.h>

/* "bug_type--func--func" in buf: bug_type (NULL: none), then up to
 * frames function names of the stack, from the first that is neither the
 * runtime's nor the allocator's, stopping after a fuzz target's entry. A
 * frame with no symbol is "module+0xOFFSET". With the report lock held. */
void dedup_token(const char *bug_type, const uintptr_t *pcs, int n, int first_exact, int frames,
                 char *buf, size_t cap);

/* A report's signature, the grouping key of its JSON line and of its
 * text's "signature:" line: a hash of the bug type, the access ("read",
 * "write", or NULL), the first three frames from the first that is
 * neither the runtime's, the allocator's nor the C library's, by the
 * symbol's own (mangled) name, else module+offset, and the source line of
 * the first of them when its module has a line table. Nothing that ASLR,
 * ukasan.symbolize or the machine's CPU changes goes in. */
uint64_t dedup_signature(const char *bug_type, const char *access, const uintptr_t *pcs, int n,
                         int first_exact);

/* The "DEDUP_TOKEN: ..." line, when ukasan.dedup_token_length is not 0;
 * inside a report (report_begin_bug ... report_end). */
void dedup_print(const char *bug_type, const uintptr_t *pcs, int n, int first_exact);

#endif
