/* A fuzzer that was told it runs an AddressSanitizer build reads ASan's
 * report from the log file it named (ASAN_OPTIONS=log_path=DIR/NAME, read
 * from NAME.PID): honggfuzz takes the pc and the bug's stack from the
 * "==PID==ERROR: " line and the "#N 0xPC in FUNC (MODULE+0xOFF)" frames
 * after it, and names the crash file by them, so one bug is saved once.
 * Without these lines it unwinds the aborting thread instead: the top
 * frames are then the runtime's, the same for every bug, and different
 * bugs collapsed into one crash file. Its hash takes the last three hex
 * digits of each pc, which address randomisation leaves alone. */
#include "asan_lines.h"

#include <link.h>

#include "../config/log.h"
#include "../config/options.h"
#include "../platform/dynlink.h"
#include "../platform/os.h"
#include "../stack/symbolize.h"

/* Enough for honggfuzz's hash (14 frames at most) and for a reader. */
#define ASAN_FRAMES 32

void report_asan_lines(const char *tool, const char *bug, uintptr_t addr, uintptr_t pc,
                       const uintptr_t *pcs, int n)
{
	if (!opt.asan_log_lines)
		return;
	/* One word: the reader splits the line at spaces. */
	char word[64], comm[16], fn[256];
	size_t k = 0;
	for (; bug[k] && k + 1 < sizeof(word); k++)
		word[k] = bug[k] == ' ' ? '-' : bug[k];
	word[k] = 0;
	report_printf("==%d==ERROR: %s: %s on address 0x%lx at pc 0x%lx\n", os_pid(), tool, word,
	              (unsigned long)addr, (unsigned long)pc);
	os_task_name(comm);
	for (int i = 0; i < n && i < ASAN_FRAMES; i++) {
		const struct link_map *l = dl_object_of((const void *)pcs[i]);
		const char *mod = l && l->l_name[0] ? sym_base_name(l->l_name) : comm;
		sym_function(pcs[i], i == 0, fn, sizeof(fn));
		report_printf("    #%d 0x%lx in %s (%s+0x%lx)\n", i, (unsigned long)pcs[i], fn, mod,
		              (unsigned long)(pcs[i] - (l ? l->l_addr : 0)));
	}
	report_printf("\n");
}
