/* A fuzzer that was told it runs an AddressSanitizer build reads ASan's
 * report from the log file it named (ASAN_OPTIONS=log_path=DIR/NAME, read
 * from NAME.PID): honggfuzz takes the pc and the bug's stack from the
 * "==PID==ERROR: " line and the "#N 0xPC in FUNC (MODULE+0xOFF)" frames
 * after it, and names the crash file by them, so one bug is saved once.
 * Without these lines it unwinds the aborting thread instead: the top
 * frames are then the runtime's, the same for every bug, and different
 * bugs collapsed into one crash file. Its hash takes the last three hex
 * digits of each pc, which address randomisation leaves alone.
 *   CTest's memory check (ctest -T memcheck with MEMORYCHECK_TYPE
 * AddressSanitizer) runs each test with such a log_path and counts the
 * lines "ERROR: AddressSanitizer: TYPE on ..." of the files as defects of
 * that TYPE: the lines name the tool and the bug as ASan does, and a
 * report has one such line. */
#include "asan_lines.h"

#include <string.h>

#include "../config/log.h"
#include "../config/options.h"
#include "../platform/os.h"
#include "dump.h"
#include "frames.h"
#include "report.h"
#include "../symbolize/symbolize.h"

const char *report_asan_bug(const char *bug_type)
{
	static const char *const names[][2] = {
	    {"slab-out-of-bounds", "heap-buffer-overflow"},
	    {"vmalloc-out-of-bounds", "heap-buffer-overflow"},
	    {"slab-use-after-free", "heap-use-after-free"},
	    {"use-after-free", "heap-use-after-free"},
	    {"stack-out-of-bounds", "stack-buffer-overflow"},
	    {"alloca-out-of-bounds", "dynamic-stack-buffer-overflow"},
	    {"global-out-of-bounds", "global-buffer-overflow"},
	    {"null-ptr-deref", "SEGV"},
	    {"kfence-memory-corruption", "memory-corruption"},
	};
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(bug_type, names[i][0]))
			return names[i][1];
	return bug_type;
}

/* Enough for honggfuzz's hash (14 frames at most) and for a reader. */
#define ASAN_FRAMES 32

void report_asan_lines(const char *bug, uintptr_t addr, uintptr_t pc, int write, size_t size,
                       const uintptr_t *pcs, int n)
{
	if (!opt.asan_log_lines || !report_asan_wanted(0))
		return;
	char prefix[24], fn[256], summary[600];
	fmt_buf(prefix, sizeof(prefix), "==%d==", os_pid());
	dump_sanitizer_error_line(prefix, bug, addr, pc);
	if (write >= 0 && size)
		report_printf("%s of size %lu at 0x%lx\n", write ? "WRITE" : "READ",
		              (unsigned long)size, (unsigned long)addr);
	for (int i = 0; i < n && i < ASAN_FRAMES; i++) {
		uintptr_t off = 0;
		const char *path = report_frame_module(pcs[i], &off);
		const char *mod = path ? sym_base_name(path) : "?";
		if (!report_frame_name(pcs[i], i == 0, fn, sizeof(fn)))
			fn[0] = 0;
		/* the name alone: "func+0x1c/0x60" cut at its last "+0x" */
		char *cut = NULL;
		for (char *p = fn; *p; p++)
			if (p[0] == '+' && p[1] == '0' && p[2] == 'x')
				cut = p;
		if (cut)
			*cut = 0;
		report_printf("    #%d 0x%lx%s%s (%s+0x%lx)\n", i, (unsigned long)pcs[i],
		              fn[0] ? " in " : " ", fn, mod, (unsigned long)off);
		if (i == 0)
			fmt_buf(summary, sizeof(summary),
			        "SUMMARY: AddressSanitizer: %s (%s+0x%lx)%s%s\n", bug, mod,
			        (unsigned long)off, fn[0] ? " in " : "", fn);
	}
	report_printf("\n%s", n ? summary : "");
}
