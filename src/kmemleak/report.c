/* kmemleak's report, in the kernel's format that syzkaller parses
 * ("BUG: memory leak", then the object, its task, a hex dump of its first
 * bytes and its allocation stack with a crc), one report per allocation
 * stack: the first object found from a stack is printed, with a count of
 * the others and their bytes, so that a loop's thousand leaks make one
 * report. As the kernel's kmemleak, an object is reported once. LSan's
 * suppressions ("leak:PATTERN" lines, from kmemleak.suppressions= or
 * LSAN_OPTIONS suppressions=, and the program's __lsan_default_suppressions)
 * drop the stacks that match. */
#include "../base/compiler.h"
#include "../config/log.h"
#include "../config/options.h"
#include "../platform/os.h"
#include "../report/dump.h"
#include "../report/frames.h"
#include "../report/report.h"
#include "../stack/stack.h"
#include "../symbolize/symbolize.h"
#include "kmemleak.h"
#include "scan.h"

#define GROUPS (1u << 16) /* a power of two */

struct group {
	depot_handle_t stack;
	uint32_t tid;
	uintptr_t obj;
	size_t size;
	unsigned long count, bytes;
	uint8_t head[32];
	int suppressed;
	/* Its objects only other leaks point to (LSan's "Indirect leak"): all
	 * of them, or the group is direct and shows a direct one. */
	unsigned long indirect, indirect_bytes;
};

static struct group *groups;
static size_t ngroups;
static unsigned long objects, bytes, old_objects, lost_objects;

/* Set while another process is checked (kmemleak_check_remote). */
static const struct kmemleak_target *proc;

static int fetch(depot_handle_t h, const uintptr_t **pcs)
{
	return proc ? proc->fetch_stack(h, pcs) : depot_fetch(h, pcs);
}

static size_t slot_of(depot_handle_t h)
{
	return (size_t)(h * 0x9e3779b1u >> 16) & (GROUPS - 1);
}

static void show(struct group *g, const struct leak_object_info *info)
{
	g->tid = info->tid;
	g->obj = info->base;
	g->size = info->size;
	size_t n = info->size < 32 ? info->size : 32;
	if (!proc)
		rt_memcpy(g->head, (const void *)g->obj, n);
	else if (proc->read(g->head, g->obj, n) != 0)
		rt_memset(g->head, 0, sizeof(g->head));
}

/* With the other threads stopped: no allocation, no lock. */
static void found(const struct leak_heap *h, struct leak_object *o, int indirect, void *arg)
{
	(void)arg;
	if (h->flags_update(o, LEAK_REPORTED, 0) & LEAK_REPORTED) {
		old_objects++;
		return;
	}
	struct leak_object_info info;
	h->describe(o, &info);
	size_t size = info.size;
	objects++;
	bytes += size;
	size_t i = slot_of(info.stack);
	for (size_t probe = 0; probe < GROUPS; probe++, i = (i + 1) & (GROUPS - 1)) {
		struct group *g = &groups[i];
		if (g->count && g->stack != info.stack)
			continue;
		if (!g->count) {
			if (ngroups >= GROUPS / 4 * 3)
				break;
			ngroups++;
			g->stack = info.stack;
			show(g, &info);
		} else if (!indirect && g->indirect == g->count)
			show(g, &info); /* the first direct one: a list's head, not a node */
		g->count++;
		g->bytes += size;
		if (indirect) {
			g->indirect++;
			g->indirect_bytes += size;
		}
		return;
	}
	lost_objects++;
}

/* LSan's matching: '*' any run, '^' and '$' anchors, else a substring. */
static int glob_at(const char *p, const char *pe, const char *s, int anchored_end)
{
	if (p == pe)
		return !anchored_end || !*s;
	if (*p == '*') {
		for (;; s++) {
			if (glob_at(p + 1, pe, s, anchored_end))
				return 1;
			if (!*s)
				return 0;
		}
	}
	return *s && *s == *p && glob_at(p + 1, pe, s + 1, anchored_end);
}

static int glob(const char *p, const char *pe, const char *s)
{
	int end = pe > p && pe[-1] == '$';
	if (end)
		pe--;
	if (p < pe && *p == '^')
		return glob_at(p + 1, pe, s, end);
	for (; *s; s++)
		if (glob_at(p, pe, s, end))
			return 1;
	return glob_at(p, pe, s, end);
}

static char supp_file[65536];
static size_t supp_len;
static int supp_loaded;

extern const char *__lsan_default_suppressions(void) __attribute__((weak));

static void append_supp(const char *text, size_t n)
{
	if (supp_len + n + 1 >= sizeof(supp_file))
		n = sizeof(supp_file) - supp_len - 2;
	rt_memcpy(supp_file + supp_len, text, n);
	supp_len += n;
	supp_file[supp_len++] = '\n';
	supp_file[supp_len] = 0;
}

static void load_suppressions(void)
{
	if (supp_loaded)
		return;
	supp_loaded = 1;
	const char *builtin = __lsan_default_suppressions ? __lsan_default_suppressions() : NULL;
	if (builtin) {
		size_t n = 0;
		while (builtin[n])
			n++;
		append_supp(builtin, n);
	}
	if (!opt.kmemleak_suppressions[0])
		return;
	int fd = os_open_read(opt.kmemleak_suppressions);
	if (fd < 0) {
		log_printf(
		    "ukasan: kmemleak: cannot open suppressions file %s; none read from it\n",
		    opt.kmemleak_suppressions);
		return;
	}
	long n;
	while (supp_len + 2 < sizeof(supp_file) &&
	       (n = os_read(fd, supp_file + supp_len, sizeof(supp_file) - supp_len - 2)) > 0)
		supp_len += (size_t)n;
	supp_file[supp_len] = 0;
	os_close(fd);
}

/* Whether a frame's function name matches a "leak:" line. */
static int suppressed(const struct group *g)
{
	if (!supp_len)
		return 0;
	const uintptr_t *pcs;
	int n = depot_fetch(g->stack, &pcs);
	char names[STACK_MAX_FRAMES][128];
	for (int i = 0; i < n; i++) {
		sym_function(pcs[i], 0, names[i], sizeof(names[i]));
		for (char *c = names[i]; *c; c++)
			if (*c == '+') /* "func+0x1c/0x40": the name alone */
				*c = 0;
	}
	for (const char *l = supp_file; *l;) {
		const char *e = l;
		while (*e && *e != '\n')
			e++;
		const char *p = l;
		while (p < e && (*p == ' ' || *p == '\t'))
			p++;
		const char *pe = e;
		while (pe > p && (pe[-1] == ' ' || pe[-1] == '\t' || pe[-1] == '\r'))
			pe--;
		if (pe - p > 5 && p[0] == 'l' && p[1] == 'e' && p[2] == 'a' && p[3] == 'k' &&
		    p[4] == ':')
			for (int i = 0; i < n; i++)
				if (glob(p + 5, pe, names[i]))
					return 1;
		l = *e ? e + 1 : e;
	}
	return 0;
}

static uint32_t crc32(const void *data, size_t len)
{
	const uint8_t *p = data;
	uint32_t crc = 0xffffffffu;
	for (size_t i = 0; i < len; i++) {
		crc ^= p[i];
		for (int k = 0; k < 8; k++)
			crc = (crc >> 1) ^ (0xedb88320u & -(crc & 1));
	}
	return ~crc;
}

/* The record the report service ends the report with (report_finish):
 * the object and its allocation stack, the only one a leak has. */
static void fill_record(struct report_record *j, const struct group *g, const char *comm,
                        const uintptr_t *pcs, int n)
{
	rt_memset(j, 0, sizeof(*j));
	j->tool = "kmemleak";
	j->bug_type = "memory-leak";
	j->write = -1;
	j->region = "heap";
	j->has_object = 1;
	j->object_addr = g->obj;
	j->object_size = g->size;
	j->stacks[REPORT_STACK_ALLOC].pcs = pcs;
	j->stacks[REPORT_STACK_ALLOC].n = n;
	j->tid = (int)g->tid;
	j->comm = comm;
	j->objects = g->count;
}

/* A stack's leaks make one report, as the kernel's: it is a direct leak
 * if one of them is, and LSan's line then counts those. */
static int direct(const struct group *g)
{
	return g->indirect < g->count;
}

/* The bytes LSan's line gives, by which LSan orders its leaks. */
static unsigned long leak_bytes(const struct group *g)
{
	return direct(g) ? g->bytes - g->indirect_bytes : g->bytes;
}

static void print_group(const struct group *g, const char *comm)
{
	report_begin_bug();
	report_printf("BUG: memory leak\n");
	report_printf("unreferenced object 0x%016lx (size %zu):\n", (unsigned long)g->obj, g->size);
	report_printf("  comm \"%s\", pid %u, jiffies %lu\n", comm, g->tid,
	              (unsigned long)(os_now_ns() / 1000000));
	size_t dump = g->size < 32 ? g->size : 32;
	report_printf("  hex dump (first %zu bytes):\n", dump);
	for (size_t row = 0; row < dump; row += 16) {
		char line[80];
		size_t k = 0, n = dump - row < 16 ? dump - row : 16;
		for (size_t i = 0; i < 16; i++)
			k += i < n ? fmt_buf(line + k, sizeof(line) - k, "%02x ", g->head[row + i])
			           : fmt_buf(line + k, sizeof(line) - k, "   ");
		k += fmt_buf(line + k, sizeof(line) - k, " ");
		for (size_t i = 0; i < n; i++) {
			uint8_t b = g->head[row + i];
			line[k++] = b >= 0x20 && b < 0x7f ? (char)b : '.';
		}
		line[k] = 0;
		report_printf("    %s\n", line);
	}
	const uintptr_t *pcs;
	int n = fetch(g->stack, &pcs);
	if (proc) { /* the frames are the other process's: no signature, no JSON here */
		report_printf("  backtrace (crc %08x):\n", crc32(pcs, (size_t)n * sizeof(*pcs)));
		for (int i = 0; i < n; i++)
			proc->print_frame(pcs[i], "    ");
		if (g->count > 1)
			report_printf(
			    "  %lu more unreferenced object%s from this stack (%lu bytes in "
			    "%lu objects)\n",
			    g->count - 1, g->count == 2 ? "" : "s", g->bytes, g->count);
		report_end();
		return;
	}
	/* LSan's line for the same leak, from which ClusterFuzz's parser
	 * takes the crash type (it knows no kmemleak). */
	if (report_asan_wanted(0))
		report_printf("%s leak of %lu byte(s) in %lu object(s) allocated from:\n",
		              direct(g) ? "Direct" : "Indirect", leak_bytes(g),
		              direct(g) ? g->count - g->indirect : g->count);
	dump_sanitizer_stack(NULL, 0, pcs, n, 0);
	report_printf("  backtrace (crc %08x):\n", crc32(pcs, (size_t)n * sizeof(*pcs)));
	report_stack_pcs(pcs, n, 0, "    ");
	if (g->count > 1)
		report_printf("  %lu more unreferenced object%s from this stack (%lu bytes in %lu "
		              "objects)\n",
		              g->count - 1, g->count == 2 ? "" : "s", g->bytes, g->count);
	struct report_record rec;
	fill_record(&rec, g, comm, pcs, n);
	report_finish(&rec);
}

static int check_lock;

static int before(const struct group *a, const struct group *b)
{
	return direct(a) != direct(b) ? direct(a) : leak_bytes(a) > leak_bytes(b);
}

static long check(const struct kmemleak_caller *self);

long kmemleak_check(const struct kmemleak_caller *self)
{
	if (!kmemleak_active())
		return 0;
	return check(self);
}

/* The new leaks only: those reported before are not counted. */
long kmemleak_check_remote(const struct kmemleak_target *t)
{
	proc = t;
	long ret = check(NULL);
	proc = NULL;
	return ret < 0 ? ret : (long)(objects + lost_objects);
}

static long check(const struct kmemleak_caller *self)
{
	if (__atomic_exchange_n(&check_lock, 1, __ATOMIC_ACQUIRE))
		return 0;
	if (!groups)
		groups = os_reserve(GROUPS * sizeof(*groups), OS_PROT_RW);
	long ret = -1;
	if (!groups)
		goto out;
	ngroups = 0;
	objects = bytes = old_objects = lost_objects = 0;
	if ((proc ? kmemleak_scan_remote(proc, found, NULL) : kmemleak_scan(self, found, NULL)) !=
	    0)
		goto out;
	ret = (long)(objects + old_objects + lost_objects);
	if (!objects)
		goto out;
	report_hold();
	if (!proc)
		load_suppressions();
	/* Direct leaks first, each kind largest first, as LSan orders them. */
	struct group *list = groups;
	size_t n = 0;
	for (size_t i = 0; i < GROUPS; i++)
		if (groups[i].count)
			list[n++] = groups[i];
	for (size_t gap = n / 2; gap > 0; gap = gap == 2 ? 1 : gap * 5 / 11)
		for (size_t i = gap; i < n; i++) {
			struct group t = list[i];
			size_t j = i;
			for (; j >= gap && before(&t, &list[j - gap]); j -= gap)
				list[j] = list[j - gap];
			list[j] = t;
		}
	for (size_t i = 0; i < n; i++)
		list[i].suppressed = suppressed(&list[i]);
	report_release();
	char comm[16];
	if (proc) {
		size_t k = 0;
		for (; proc->comm[k] && k < sizeof(comm) - 1; k++)
			comm[k] = proc->comm[k];
		comm[k] = 0;
	} else
		os_task_name(comm);
	unsigned long shown = 0, shown_bytes = 0, quiet = 0, stacks = 0;
	for (size_t i = 0; i < n; i++) {
		if (list[i].suppressed) {
			quiet += list[i].count;
			continue;
		}
		print_group(&list[i], comm);
		stacks++;
		shown += list[i].count;
		shown_bytes += list[i].bytes;
	}
	if (shown)
		log_printf("ukasan: kmemleak: %lu new suspected memory leak%s (%lu bytes) from %lu "
		           "allocation stack%s\n",
		           shown, shown == 1 ? "" : "s", shown_bytes, stacks,
		           stacks == 1 ? "" : "s");
	if (quiet)
		log_printf("ukasan: kmemleak: %lu unreferenced object%s suppressed\n", quiet,
		           quiet == 1 ? "" : "s");
	ret = (long)(shown + old_objects + lost_objects);
	os_discard(groups, GROUPS * sizeof(*groups));
out:
	__atomic_store_n(&check_lock, 0, __ATOMIC_RELEASE);
	return ret;
}
