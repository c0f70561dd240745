/* Included by ukasan-cc in every file clang compiles for x86-64 (-include).
 *
 * clang's recoverable inline checks call __asan_report_*_noabort, which
 * return; as ordinary calls they clobber every caller-saved register, so in
 * a vectorised loop clang spilled all live vector registers around every
 * check (a 200x200 matrix product ran twice as slow as under ASan).
 * ukasan's report functions keep every register (arch/x86_64/callbacks.S), and
 * these declarations say so: clang gives calls to a function declared
 * no_caller_saved_registers an all-registers-preserved mask, and its ASan
 * pass uses the declaration it finds in the module. cold moves the report
 * calls out of the loop body, as a non-returning report would be. A used
 * pointer to each keeps the declaration in the module. */
#ifndef UKASAN_KASAN_CLANG_REPORTS_H /* a precompiled header may have it already */
#define UKASAN_KASAN_CLANG_REPORTS_H
#pragma clang system_header
#if defined(__clang__) && defined(__x86_64__) && !defined(__ASSEMBLER__)
#ifdef __cplusplus
extern "C" {
#endif
#define UKASAN_DECLARE_REPORT(name, ...)                                                           \
	__attribute__((no_caller_saved_registers, cold)) void name(__VA_ARGS__);                   \
	static __typeof__(name) *const __ukasan_keep_##name __attribute__((used)) = name;
UKASAN_DECLARE_REPORT(__asan_report_load1_noabort, unsigned long)
UKASAN_DECLARE_REPORT(__asan_report_store1_noabort, unsigned long)
UKASAN_DECLARE_REPORT(__asan_report_load2_noabort, unsigned long)
UKASAN_DECLARE_REPORT(__asan_report_store2_noabort, unsigned long)
UKASAN_DECLARE_REPORT(__asan_report_load4_noabort, unsigned long)
UKASAN_DECLARE_REPORT(__asan_report_store4_noabort, unsigned long)
UKASAN_DECLARE_REPORT(__asan_report_load8_noabort, unsigned long)
UKASAN_DECLARE_REPORT(__asan_report_store8_noabort, unsigned long)
UKASAN_DECLARE_REPORT(__asan_report_load16_noabort, unsigned long)
UKASAN_DECLARE_REPORT(__asan_report_store16_noabort, unsigned long)
UKASAN_DECLARE_REPORT(__asan_report_load_n_noabort, unsigned long, unsigned long)
UKASAN_DECLARE_REPORT(__asan_report_store_n_noabort, unsigned long, unsigned long)
#undef UKASAN_DECLARE_REPORT
#ifdef __cplusplus
}
#endif
#endif
#endif
