/* A report's signature for fuzzers (libFuzzer's DEDUP_TOKEN line, as
 * sanitizer_common prints it with dedup_token_length): the same bug gives
 * the same token across runs, builds' load addresses and ASLR; different
 * bugs, different tokens. */
#ifndef UKASAN_STACK_DEDUP_H
#define UKASAN_STACK_DEDUP_H

#include <stddef.h>
#include <stdint.h>

/* "bug_type--func--func" in buf: bug_type (NULL: none), then up to
 * frames function names of the stack, from the first that is neither the
 * runtime's nor the allocator's, stopping after a fuzz target's entry. A
 * frame with no symbol is "module+0xOFFSET". With the report lock held. */
void dedup_token(const char *bug_type, const uintptr_t *pcs, int n, int first_exact, int frames,
                 char *buf, size_t cap);

/* The "DEDUP_TOKEN: ..." line, when ukasan.dedup_token_length is not 0;
 * inside a report (report_begin_bug ... report_end). */
void dedup_print(const char *bug_type, const uintptr_t *pcs, int n, int first_exact);

#endif
