/* Instrumented globals in generic mode: their redzones, the table reports
 * name them from, and AddressSanitizer's two checks the kernel has no use
 * for: dynamic initialisation order (C++ initialisers of one file reading
 * another file's globals before theirs ran) and two definitions of one
 * global in two modules (the One Definition Rule). */
#define _GNU_SOURCE
#include <link.h>

#include "../base/compiler.h"
#include "../config/log.h"
#include "../config/options.h"
#include "../platform/dynlink.h"
#include "../platform/lock.h"
#include "../platform/os.h"
#include "../report/dump.h"
#include "../report/frames.h"
#include "../report/report.h"
#include "../shadow/shadow.h"
#include "../stack/stack.h"
#include "../symbolize/symbolize.h"
#include "generic.h"
#include "kasan.h"
#include "mode.h"
#include "report.h"

/* Registered in an array in reserved memory, so the report path can name
 * a variable without malloc. The registration's stack is kept for an ODR
 * report, which names where each definition came from. */
struct global_reg {
	const struct asan_global *g;
	depot_handle_t stack;
	/* Chains of the hash tables by address, by ODR indicator and by
	 * name: entry index + 1, 0 at the end. */
	uint32_t next[3];
	/* Dynamically initialised, and its file's initialisers have run. */
	uint8_t initialized;
	/* Without an ODR indicator (GCC's): the module's exported definition
	 * of its name, in module (chained by name). */
	uint8_t exported;
	const struct link_map *module;
	/* Its exported symbol's name: GCC's descriptors name a C++ global
	 * without its scope ("G" for foo::G), the symbol mangled. */
	const char *symbol;
};
static struct global_reg *globals;
static size_t nglobals;
static struct spinlock globals_lock; /* a leaf: not in platform/lock.h's fork order */
#define MAX_GLOBALS (8u << 20)
/* Registrations by address ([0]), by ODR indicator ([1]) and by name
 * ([2], exported definitions without an indicator), so that a program with
 * many globals is not checked in quadratic time. */
#define HASH_BUCKETS (1u << 20)
#define NKEYS        3
static uint32_t *heads[NKEYS];

static uintptr_t key_of(const struct asan_global *g, int k)
{
	if (k == 0)
		return g->beg;
	return g->odr_indicator != ~0ul ? g->odr_indicator : 0;
}

static uintptr_t name_key(const char *s)
{
	uintptr_t h = 1469598103934665603ul;
	while (s && *s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ul;
	return h | 1;
}

static uintptr_t reg_key(const struct global_reg *r, int k)
{
	if (k < 2)
		return key_of(r->g, k);
	return r->exported ? name_key(r->symbol) : 0;
}

static uint32_t *bucket(int k, uintptr_t key)
{
	return &heads[k][(uint32_t)((key * 0x9e3779b97f4a7c15ul) >> 44) & (HASH_BUCKETS - 1)];
}

static void hash_insert(size_t i)
{
	for (int k = 0; k < NKEYS; k++) {
		uintptr_t key = reg_key(&globals[i], k);
		if (!key)
			continue;
		uint32_t *b = bucket(k, key);
		globals[i].next[k] = *b;
		*b = (uint32_t)i + 1;
	}
}

/* The file whose initialisers ran last: GCC registers a file's globals
 * after them, from a constructor of default priority. */
static const char *last_init_module;
static int same_module(const char *a, const char *b);

static void poison_global(const struct asan_global *g)
{
	shadow_unpoison(g->beg, g->size);
	uintptr_t end = ALIGN_UP(g->beg + g->size, GRANULE);
	if (g->beg + g->size_with_redzone > end)
		shadow_poison(end, g->beg + g->size_with_redzone - end, SHADOW_GLOBAL_REDZONE);
}

/* The descriptors themselves: both compilers put a file's array in .data
 * after its globals, so the next file's first global follows it, with no
 * redzone of its own on the left; an underflow of that global read the
 * descriptors unseen. No instrumented code reads them: only the runtime. */
static void mark_descriptors(const struct asan_global *g, size_t n, int poison)
{
	uintptr_t beg = ALIGN_UP((uintptr_t)g, GRANULE);
	uintptr_t end = ALIGN_DOWN((uintptr_t)(g + n), GRANULE);
	if (!n || end <= beg || !shadow_covers(beg) || !shadow_covers(end - 1))
		return;
	if (poison)
		shadow_poison(beg, end - beg, SHADOW_GLOBAL_REDZONE);
	else
		shadow_unpoison(beg, end - beg);
}

static const char *module_of(const void *p, struct sym_info *si)
{
	return sym_info((uintptr_t)p, si) && si->module[0] ? si->module : "?";
}

static void print_definition(int i, const struct global_reg *r)
{
	const struct asan_global *g = r->g;
	struct sym_info si;
	report_printf(" [%d] size=%zu '%s'", i, g->size, g->name);
	if (g->location && g->location->file)
		report_printf(" %s:%d", g->location->file, g->location->line);
	report_printf(" (file %s) in %s\n", g->module_name ? g->module_name : "?",
	              module_of(g, &si));
}

static void print_registration(int i, depot_handle_t h)
{
	const uintptr_t *pcs;
	int n = depot_fetch(h, &pcs);
	report_printf(" [%d]:\n", i);
	if (n)
		report_stack(pcs, n, 0);
	else
		report_printf("  (stack is not available)\n");
}

static void odr_finish(const struct asan_global *g, const uintptr_t *pcs, int n);

/* AddressSanitizer's odr-violation, in the form of a KASAN report: the two
 * definitions, the stack of the second registration, and where each was
 * registered. */
static void report_odr(const struct global_reg *first, const struct global_reg *second)
{
	if (!kasan_report_enter())
		return;
	const uintptr_t *pcs;
	int n = depot_fetch(second->stack, &pcs);
	report_begin_bug();
	report_printf("==================================================================\n");
	report_printf("BUG: KASAN: odr-violation in %s\n", second->g->name);
	report_printf("Global '%s' at addr %016lx is defined in two modules:\n", second->g->name,
	              (unsigned long)second->g->beg);
	print_definition(1, first);
	print_definition(2, second);
	report_printf("\n");
	dump_this_task();
	dump_trace(pcs, n, 0);
	report_printf("\nThese globals were registered at:\n");
	print_registration(1, first->stack);
	print_registration(2, second->stack);
	odr_finish(second->g, pcs, n);
}

/* The record of an odr-violation report, once its text is out. */
static void odr_finish(const struct asan_global *g, const uintptr_t *pcs, int n)
{
	report_printf("==================================================================\n");
	struct report_record rec;
	char comm[16];
	rt_memset(&rec, 0, sizeof(rec));
	os_task_name(comm);
	rec.tool = "KASAN";
	rec.bug_type = rec.asan_bug = "odr-violation";
	rec.write = -1;
	rec.addr = g->beg;
	rec.region = "global";
	rec.name = g->name;
	rec.stacks[REPORT_STACK_ACCESS].pcs = pcs;
	rec.stacks[REPORT_STACK_ACCESS].n = n;
	rec.tid = os_tid();
	rec.comm = comm;
	if (opt.kasan_fault == FAULT_PANIC) {
		rec.action = REPORT_PANIC;
		rec.action_by = "kasan.fault=panic";
	}
	kasan_report_leave();
	report_finish(&rec);
}

/* A descriptor whose global is not at a granule boundary: the name bound
 * to another module's definition, one built without instrumentation (or a
 * C common symbol, -fcommon) that the linker chose over this one, and
 * that has no redzone. AddressSanitizer takes it for an ODR violation it
 * cannot say more of, and so does this report (LLVM's
 * Linux/odr_c_test.c). The global is left unmarked: its redzone would be
 * the other module's data. */
static void report_odr_misaligned(const struct asan_global *g, depot_handle_t stack)
{
	if (!kasan_report_enter())
		return;
	const uintptr_t *pcs;
	int n = depot_fetch(stack, &pcs);
	struct global_reg reg = {.g = g, .stack = stack};
	report_begin_bug();
	report_printf("==================================================================\n");
	report_printf("BUG: KASAN: odr-violation in %s\n", g->name);
	report_printf("Global '%s' at addr %016lx is not aligned to %d bytes, as instrumented "
	              "globals are:\n",
	              g->name, (unsigned long)g->beg, (int)GRANULE);
	print_definition(1, &reg);
	report_printf("The name is bound to another definition, in a module built without "
	              "instrumentation\nor a C common symbol (-fcommon): likely an ODR violation.\n"
	              "\n");
	dump_this_task();
	dump_trace(pcs, n, 0); /* where it was registered */
	odr_finish(g, pcs, n);
}

/* clang marks a global of internal linkage (a static, a function's static,
 * a string literal) with an ODR indicator of all ones: no other module can
 * name it, so it is never a second definition. */
static int local_linkage(const struct asan_global *g)
{
	return g->odr_indicator == ~0ul;
}

/* Two descriptors of one address and size in one module are one object
 * that the compiler or the static linker merged, not two definitions:
 * GCC's identical code folding at -O2 gives two function-local constant
 * tables with equal contents one address (SQLite's two aiOff), and so do
 * mergeable constant sections. Two definitions of one name in one module
 * cannot link; the address is shared across modules only when the dynamic
 * linker bound a module's references to another's definition. Sizes that
 * differ stay a violation: no merge gives one object two sizes. The module
 * is that of the descriptor, which lies in the registering module's data. */
static int merged(const struct asan_global *a, const struct asan_global *b)
{
	if (a->size != b->size)
		return 0;
	const struct link_map *m = dl_object_of(a);
	return m && m == dl_object_of(b);
}

/* Two registrations are one global defined twice when they share its
 * address (the dynamic linker bound both modules' references to the first
 * definition) or clang's ODR indicator (each module kept its own copy, but
 * the indicator symbol is interposed). GCC's kernel-address instrumentation
 * has neither: each module describes its own copy, through a local alias,
 * and no indicator (asan.c emits them for -fsanitize=address only). Those
 * are one global when two modules export a definition of the same name:
 * the dynamic linker binds every reference to the first, and the other
 * module's copy is the second definition. A static, not exported, is
 * another variable; a copy relocation (the program's copy of a library's
 * variable) registers nothing, as the program does not define it. */
static const struct global_reg *odr_twin(const struct global_reg *r)
{
	const struct asan_global *g = r->g;
	if (local_linkage(g))
		return NULL;
	for (int k = 0; k < NKEYS; k++) {
		uintptr_t key = reg_key(r, k);
		if (!key || !heads[k])
			continue;
		for (uint32_t i = *bucket(k, key); i; i = globals[i - 1].next[k]) {
			const struct global_reg *o = &globals[i - 1];
			const struct asan_global *h = o->g;
			if (h == g || reg_key(o, k) != key || local_linkage(h))
				continue;
			if (k == 2 &&
			    (o->module == r->module || !same_module(o->symbol, r->symbol)))
				continue;
			if (k == 0 && merged(h, g))
				continue;
			if (opt.kasan_odr >= 2 || h->size != g->size)
				return o;
		}
	}
	return NULL;
}

/* Whether g is its module's exported definition of its name; looked up in
 * the module's dynamic symbol table in place (no dlsym, no allocation). */
static int exported_definition(const struct asan_global *g, const struct link_map **module,
                               const char **symbol)
{
	*module = NULL;
	*symbol = NULL;
	if (!g->name || key_of(g, 1))
		return 0;
	*module = dl_object_of((const void *)g->beg);
	if (!*module)
		return 0;
	if (dl_lookup_object(*module, g->name) == (void *)g->beg) {
		*symbol = g->name;
		return 1;
	}
	/* A C++ global (a static, not exported, is looked for in vain). */
	*symbol = dl_object_name_at(*module, (const void *)g->beg);
	return *symbol != NULL;
}

/* GCC's kernel-address instrumentation registers a file's globals from a
 * constructor of default priority that runs after the file's own
 * initialisers, so while one file's initialisers run, the files after it
 * are not known yet and their globals cannot be poisoned. For the
 * initialisation-order check, the first initialiser calls those
 * constructors ahead of time (GCC names them _sub_I_65535_N: a few
 * instructions that pass the file's descriptors); their own turn is then
 * skipped. */
#define MAX_EARLY 1024
static const struct asan_global *early[MAX_EARLY];
static size_t nearly;
static __thread int registering_early __attribute__((tls_model("initial-exec")));
static const struct link_map *scanned[256];
static size_t nscanned;

static int registered_early(const struct asan_global *g)
{
	for (size_t i = 0; i < nearly; i++)
		if (early[i] == g) {
			early[i] = early[--nearly];
			return 1;
		}
	return 0;
}

static int is_gcc_registration(void (*fn)(void))
{
	static const char prefix[] = "_sub_I_65535_";
	char name[128];
	sym_function((uintptr_t)fn, 1, name, sizeof(name));
	for (size_t i = 0; i < sizeof(prefix) - 1; i++)
		if (name[i] != prefix[i])
			return 0;
	/* "_sub_I_65535_1+0x0/0x17": the function's start, and small. */
	const char *plus = name + sizeof(prefix) - 1;
	while (*plus && *plus != '+')
		plus++;
	const char *want = "+0x0/0x";
	for (int i = 0; want[i]; i++)
		if (plus[i] != want[i])
			return 0;
	unsigned long size = 0;
	for (const char *d = plus + 7; *d; d++)
		size = size * 16 + (unsigned long)(*d <= '9' ? *d - '0' : (*d | 32) - 'a' + 10);
	return size <= 64;
}

static void register_gcc_files_early(void)
{
	for (const struct link_map *l = dl_first_object(); l; l = l->l_next) {
		int seen = 0;
		for (size_t i = 0; i < nscanned; i++)
			seen |= scanned[i] == l;
		if (seen || nscanned == sizeof(scanned) / sizeof(scanned[0]))
			continue;
		scanned[nscanned++] = l;
		void (*const *ctors)(void);
		size_t n = dl_init_array(l, &ctors);
		for (size_t i = 0; i < n; i++)
			if (nearly < MAX_EARLY && is_gcc_registration(ctors[i])) {
				registering_early = 1;
				ctors[i]();
				registering_early = 0;
			}
	}
}

UKASAN_EXPORT void __asan_register_globals(const struct asan_global *g, size_t n)
{
	kasan_claim(&generic_ops);
	if (!kasan_enabled)
		return;
	if (registering_early) {
		if (nearly < MAX_EARLY)
			early[nearly++] = g;
	} else if (nearly && registered_early(g)) {
		return;
	}
	uintptr_t pcs[STACK_MAX_FRAMES];
	depot_handle_t stack = depot_save(pcs, stack_capture(pcs, STACK_MAX_FRAMES));
	const struct global_reg *twins[16][2];
	const struct asan_global *misaligned[16];
	size_t ntwins = 0, nmisaligned = 0;
	spin_lock(&globals_lock);
	mark_descriptors(g, n, 1);
	if (!globals) {
		globals = os_reserve(MAX_GLOBALS * sizeof(*globals), OS_PROT_RW);
		heads[0] = os_reserve(NKEYS * HASH_BUCKETS * sizeof(uint32_t), OS_PROT_RW);
		for (int k = 1; k < NKEYS; k++)
			heads[k] = heads[0] ? heads[0] + k * HASH_BUCKETS : NULL;
	}
	for (size_t i = 0; i < n; i++) {
		if (g[i].beg & (GRANULE - 1)) {
			if (opt.kasan_odr && nmisaligned < 16)
				misaligned[nmisaligned++] = &g[i];
			continue;
		}
		const struct link_map *module = NULL;
		const char *symbol = NULL;
		int exported = opt.kasan_odr && exported_definition(&g[i], &module, &symbol);
		struct global_reg reg = {&g[i],  stack, {0, 0, 0}, 0, (uint8_t)exported,
		                         module, symbol};
		const struct global_reg *twin = opt.kasan_odr ? odr_twin(&reg) : NULL;
		/* Of two descriptors of one address the last registered marks
		 * it: the executable's, whose definition the linker chose, as
		 * libraries register first. */
		poison_global(&g[i]);
		if (globals && nglobals < MAX_GLOBALS) {
			/* Its file's initialisers have run (GCC's order). */
			int done = g[i].has_dynamic_init && !opt.kasan_strict_init_order &&
			           last_init_module && !registering_early &&
			           same_module(g[i].module_name, last_init_module);
			reg.initialized = (uint8_t)done;
			globals[nglobals] = reg;
			if (twin && ntwins < 16) {
				twins[ntwins][0] = twin;
				twins[ntwins++][1] = &globals[nglobals];
			}
			if (heads[0])
				hash_insert(nglobals);
			nglobals++;
		}
	}
	spin_unlock(&globals_lock);
	/* Outside the lock: the report symbolizes, which may register nothing
	 * but takes time. Entries are only ever appended while a module loads. */
	for (size_t i = 0; i < ntwins; i++)
		report_odr(twins[i][0], twins[i][1]);
	for (size_t i = 0; i < nmisaligned; i++)
		report_odr_misaligned(misaligned[i], stack);
}

UKASAN_EXPORT void __asan_unregister_globals(const struct asan_global *g, size_t n)
{
	if (!kasan_enabled)
		return;
	spin_lock(&globals_lock);
	/* A module going away (dlclose) is rare: the chains are rebuilt. */
	for (size_t j = 0; heads[0] && j < nglobals; j++)
		for (int k = 0; k < NKEYS; k++)
			if (reg_key(&globals[j], k))
				*bucket(k, reg_key(&globals[j], k)) = 0;
	for (size_t i = 0; i < n; i++) {
		shadow_unpoison(g[i].beg, g[i].size_with_redzone);
		for (size_t j = 0; j < nglobals; j++)
			if (globals[j].g == &g[i])
				globals[j] = globals[--nglobals];
	}
	for (size_t j = 0; heads[0] && j < nglobals; j++)
		hash_insert(j);
	mark_descriptors(g, n, 0);
	spin_unlock(&globals_lock);
}

const struct asan_global *generic_find_global(uintptr_t addr)
{
	for (size_t i = 0; i < nglobals; i++) {
		const struct asan_global *g = globals[i].g;
		if (addr >= g->beg && addr < g->beg + g->size_with_redzone)
			return g;
	}
	return NULL;
}

/* The compilers pass each file's name as a string of their own, which
 * need not be the descriptors' copy. */
static int same_module(const char *a, const char *b)
{
	if (a == b)
		return 1;
	if (!a || !b)
		return 0;
	while (*a && *a == *b)
		a++, b++;
	return *a == *b;
}

/* kasan.strict_init_order turns the check on by itself, as ASan's
 * strict_init_order implies check_initialization_order (ASan's own test
 * of either link order sets strict_init_order alone, and alone it checked
 * nothing). */
static int init_order_stopped;

static int init_order_checked(void)
{
	return (opt.kasan_init_order || opt.kasan_strict_init_order) &&
	       !__atomic_load_n(&init_order_stopped, __ATOMIC_RELAXED);
}

/* At exit: the globals of files whose initialisers never ran (exit called
 * from an initialiser) count as initialised; destructors may read them. */
void kasan_init_order_stop(void)
{
	if (!kasan_enabled || !init_order_checked() || kasan_ops != &generic_ops)
		return;
	spin_lock(&globals_lock);
	__atomic_store_n(&init_order_stopped, 1, __ATOMIC_RELAXED);
	for (size_t i = 0; i < nglobals; i++) {
		struct global_reg *r = &globals[i];
		if (r->g->has_dynamic_init && !r->initialized) {
			r->initialized = 1;
			poison_global(r->g);
		}
	}
	spin_unlock(&globals_lock);
}

/* Around one file's dynamic initialisers (kasan.check_initialization_order,
 * ASan's check_initialization_order): the dynamically initialised globals
 * of every other file whose initialisers have not run are poisoned, so that
 * reading one is an initialization-order-fiasco. Without
 * kasan.strict_init_order a file's globals count as initialised once its
 * initialisers have run; with it, every other file's stay poisoned. */
UKASAN_EXPORT void __asan_before_dynamic_init(const char *module)
{
	if (!kasan_enabled || !init_order_checked() || kasan_ops != &generic_ops)
		return;
	register_gcc_files_early();
	spin_lock(&globals_lock);
	last_init_module = module;
	for (size_t i = 0; i < nglobals; i++) {
		struct global_reg *r = &globals[i];
		if (!r->g->has_dynamic_init || r->initialized)
			continue;
		if (!same_module(r->g->module_name, module))
			shadow_poison(r->g->beg, ALIGN_UP(r->g->size, GRANULE), SHADOW_INIT_ORDER);
		else if (!opt.kasan_strict_init_order)
			r->initialized = 1;
	}
	spin_unlock(&globals_lock);
}

UKASAN_EXPORT void __asan_after_dynamic_init(void)
{
	if (!kasan_enabled || !init_order_checked() || kasan_ops != &generic_ops)
		return;
	spin_lock(&globals_lock);
	for (size_t i = 0; i < nglobals; i++)
		if (globals[i].g->has_dynamic_init && !globals[i].initialized)
			poison_global(globals[i].g);
	spin_unlock(&globals_lock);
}
