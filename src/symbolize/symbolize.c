#define _GNU_SOURCE
#include "symbolize.h"

#include <dlfcn.h>
#include <elf.h>
#include <link.h>
#include <string.h>

#include "../base/compiler.h"
#include <unistd.h>

#include "../config/log.h"
#include "../config/options.h"
#include "../platform/os.h"

#include "demangle.h"
#include "dwarf_line.h"
#include "elf_image.h"
#include "symbolize_impl.h"

static void symbolizer_tools(void);
static size_t current_dir(void);

/* Only touched with the report lock held. */
static struct module mods[64];
static int nmods;

/* Section i of m's file, or NULL (elf_image.c checks it); kept under its
 * old name for the code that used it. */
__attribute__((unused)) static const ElfW(Shdr) *
    section(const struct module *m, const ElfW(Ehdr) * eh, unsigned i)
{
	(void)eh;
	return elf_section(m->file, m->size, i);
}

/* Debian's -dbgsym packages put the full symbol table and DWARF in
 * /usr/lib/debug/.build-id/xx/yyyy.debug. */
static int build_id_debug_file(const struct module *m, char *path, size_t cap)
{
	const unsigned char *desc;
	size_t n;
	if (!elf_build_id(m->file, m->size, 63, &desc, &n))
		return 0;
	size_t k = fmt_buf(path, cap, "/usr/lib/debug/.build-id/%02x/", desc[0]);
	for (size_t j = 1; j < n; j++)
		k += fmt_buf(path + k, cap - k, "%02x", desc[j]);
	fmt_buf(path + k, cap - k, ".debug");
	return os_file_exists(path);
}

/* Point m at the best symbol table of the ELF image mapped at file. */
static int find_symtab(struct module *m, const unsigned char *file, size_t size, int *has_debug)
{
	struct elf_symtab t;
	int full = elf_symtab(file, size, &t, has_debug);
	if (!t.nsyms)
		return 0;
	m->syms = t.syms;
	m->nsyms = t.nsyms;
	m->strs = t.strs;
	m->strsz = t.strsz;
	return full;
}

static void load_symbols(struct module *m)
{
	char dbg[200];
	int full, dbg_has_line = 0;
	m->file = os_map_file(m->path, &m->size);
	if (!m->file)
		return;
	full = find_symtab(m, m->file, m->size, &m->has_debug);
	if (!build_id_debug_file(m, dbg, sizeof(dbg)))
		return;
	m->has_debug = 1;
	/* kept for its line tables, and for the local functions of a
	 * stripped library */
	m->dfile = os_map_file(dbg, &m->dsize);
	if (m->dfile && !full)
		find_symtab(m, m->dfile, m->dsize, &dbg_has_line);
}

/* The GNU build-id from the loaded image itself: its ELF header is mapped
 * at the object's lowest address, and the note in a PT_NOTE segment. No
 * file is read, so it works in any sandbox. The loader ignores PT_NOTE, so
 * a note is read only where a PT_LOAD segment's file contents are mapped;
 * the headers only within the first page. */
static void read_build_id(struct module *m)
{
	const ElfW(Ehdr) *eh = (const void *)m->start;
	size_t span = m->end - m->start, first = span < 4096 ? span : 4096;
	if (first < sizeof(*eh) || memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
	    eh->e_phentsize != sizeof(ElfW(Phdr)) || eh->e_phoff > first ||
	    (first - eh->e_phoff) / sizeof(ElfW(Phdr)) < eh->e_phnum ||
	    eh->e_phoff % _Alignof(ElfW(Phdr)))
		return;
	const ElfW(Phdr) *ph = (const void *)(m->start + eh->e_phoff);
	for (unsigned i = 0; i < eh->e_phnum; i++) {
		if (ph[i].p_type != PT_NOTE)
			continue;
		int mapped = 0;
		for (unsigned j = 0; j < eh->e_phnum && !mapped; j++)
			mapped = ph[j].p_type == PT_LOAD && ph[i].p_vaddr >= ph[j].p_vaddr &&
			         ph[j].p_filesz <= ph[j].p_memsz &&
			         ph[i].p_vaddr - ph[j].p_vaddr <= ph[j].p_filesz &&
			         ph[i].p_filesz <= ph[j].p_filesz - (ph[i].p_vaddr - ph[j].p_vaddr);
		uintptr_t at = m->bias + ph[i].p_vaddr;
		if (!mapped || at < m->start || at > m->end || ph[i].p_filesz > m->end - at)
			continue;
		const unsigned char *desc;
		size_t n;
		if (elf_notes_build_id((const void *)at, ph[i].p_filesz, 20, &desc, &n)) {
			for (size_t j = 0; j < n; j++)
				fmt_buf(m->build_id + 2 * j, 3, "%02x", desc[j]);
			return;
		}
	}
}

/* Its symbol files are opened once, and never once the program has
 * sandboxed itself: a module first seen then keeps module+offset and
 * build-id only, which `ukasan symbolize` completes offline. */
static void load_once(struct module *m)
{
	if (m->loaded || !os_may_open_files() || !m->path[0])
		return;
	m->loaded = 1;
	load_symbols(m);
}

struct module *sym_module_of(uintptr_t pc)
{
	for (int i = 0; i < nmods; i++)
		if (pc >= mods[i].start && pc < mods[i].end) {
			load_once(&mods[i]);
			return &mods[i];
		}
	struct dl_find_object fo;
	if (_dl_find_object((void *)pc, &fo) != 0)
		return NULL;
	struct module *m = &mods[nmods < 64 ? nmods++ : 63];
	rt_memset(m, 0, sizeof(*m));
	m->start = (uintptr_t)fo.dlfo_map_start;
	m->end = (uintptr_t)fo.dlfo_map_end;
	m->bias = fo.dlfo_link_map->l_addr;
	const char *name = fo.dlfo_link_map->l_name;
	if (!name || !*name)
		os_self_exe(m->path, sizeof(m->path));
	else
		fmt_buf(m->path, sizeof(m->path), "%s", name);
	read_build_id(m);
	load_once(m);
	return m;
}

/* Every loaded object's symbols, now, before the program sandboxes
 * itself. */
static int prepare_one(struct dl_phdr_info *info, size_t size, void *data)
{
	(void)size;
	(void)data;
	for (int i = 0; i < info->dlpi_phnum; i++)
		if (info->dlpi_phdr[i].p_type == PT_LOAD) {
			sym_module_of(info->dlpi_addr + info->dlpi_phdr[i].p_vaddr);
			break;
		}
	return 0;
}

/* After dlclose: another object may come at a closed one's addresses. */
void sym_forget_unloaded(void)
{
	int kept = 0;
	for (int i = 0; i < nmods; i++) {
		struct dl_find_object fo;
		if (_dl_find_object((void *)mods[i].start, &fo) == 0 &&
		    (uintptr_t)fo.dlfo_map_start == mods[i].start) {
			if (kept != i)
				mods[kept] = mods[i];
			kept++;
		} else {
			if (mods[i].file) {
				dwarf_forget(mods[i].file, mods[i].size);
				os_release((void *)mods[i].file, mods[i].size);
			}
			if (mods[i].dfile) {
				dwarf_forget(mods[i].dfile, mods[i].dsize);
				os_release((void *)mods[i].dfile, mods[i].dsize);
			}
		}
	}
	nmods = kept;
	sym_inlines_forget();
}

void sym_prepare_sandbox(void)
{
	dl_iterate_phdr(prepare_one, NULL);
	symbolizer_tools();
	current_dir();
}

const char *sym_base_name(const char *path)
{
	const char *b = strrchr(path, '/');
	return b ? b + 1 : path;
}

/* Find the function symbol containing addr (a file-relative address). */
static const ElfW(Sym) * find_symbol(const struct module *m, uintptr_t addr)
{
	struct elf_symtab t = {m->syms, m->nsyms, m->strs, m->strsz};
	return elf_find_symbol(&t, addr);
}

/* One frame's symbol: its name (without a "@@GLIBC_2.34" version), and
 * the pc's offset in it; found is 0 when pc is in no known function. */

void sym_lookup(uintptr_t pc, int exact, struct frame_sym *f)
{
	const ElfW(Sym) *s = NULL;
	f->m = sym_module_of(pc);
	if (f->m)
		s = find_symbol(f->m, pc - f->m->bias - (exact ? 0 : 1));
	f->found = s != NULL;
	f->name[0] = 0;
	if (!s)
		return;
	fmt_buf(f->name, sizeof(f->name), "%s", f->m->strs + s->st_name);
	char *at = strchr(f->name, '@');
	if (at)
		*at = 0;
	f->off = pc - f->m->bias - s->st_value;
	f->size = s->st_size;
}

/* The helper programs, looked for once while the process may still look. */
static const char *demangler, *line_tool;
static int tools_known;

static const char *first_existing(const char *const *paths)
{
	for (int i = 0; paths[i]; i++)
		if (os_file_exists(paths[i]))
			return paths[i];
	return NULL;
}

static void symbolizer_tools(void)
{
	/* llvm-symbolizer reads gcc 12's DWARF 5 file tables right; binutils
	 * 2.40's addr2line names the wrong file for code from headers. */
	static const char *const llvm[] = {
	    "/usr/bin/llvm-symbolizer", "/usr/lib/llvm-16/bin/llvm-symbolizer",
	    "/usr/lib/llvm-15/bin/llvm-symbolizer", "/usr/lib/llvm-14/bin/llvm-symbolizer", NULL};
	static const char *const cxxfilt[] = {"/usr/bin/c++filt", "/usr/bin/llvm-cxxfilt",
	                                      "/usr/lib/llvm-16/bin/llvm-cxxfilt", NULL};
	if (tools_known || os_sandboxed())
		return;
	line_tool = first_existing(llvm);
	demangler = first_existing(cxxfilt);
	tools_known = 1;
}

/* A helper runs only where the process may still start one. */
static int may_run_helpers(void)
{
	symbolizer_tools();
	return opt.symbolize && tools_known && !os_sandboxed();
}

/* C++ names: in this process (demangle.c) where it reads the name whole,
 * and the rest all at once by one run of c++filt (binutils), which neither
 * allocates in this process nor takes a lock here; as ukasan.symbolizer
 * says, only in-process (a name it gives up on stays mangled) or only by
 * c++filt. */
void sym_demangle(struct frame_sym *fs, int n)
{
	static char out[16384];
	char name[1024]; /* cut to the frame's size as c++filt's answer is */
	const char *argv[66];
	int idx[64], na = 0;
	for (int i = 0; i < n && opt.symbolizer != SYMBOLIZER_EXTERNAL; i++)
		if (opt.symbolize && fs[i].found && !cxx_demangle(fs[i].name, name, sizeof(name)))
			fmt_buf(fs[i].name, sizeof(fs[0].name), "%s", name);
	if (opt.symbolizer == SYMBOLIZER_INTERNAL || !may_run_helpers() || !demangler)
		return;
	argv[0] = demangler;
	for (int i = 0; i < n && na < 64; i++)
		if (fs[i].found && fs[i].name[0] == '_' && fs[i].name[1] == 'Z') {
			argv[1 + na] = fs[i].name;
			idx[na++] = i;
		}
	argv[1 + na] = NULL;
	if (!na || os_run_capture(argv, out, sizeof(out), 5000) <= 0)
		return;
	char *line = out;
	for (int j = 0; j < na && *line; j++) {
		char *nl = strchr(line, '\n');
		if (nl)
			*nl = 0;
		if (*line)
			fmt_buf(fs[idx[j]].name, sizeof(fs[0].name), "%s", line);
		if (!nl)
			break;
		line = nl + 1;
	}
}

/* "func+0xOFF/0xSIZE", or the bare address. */
static size_t describe(uintptr_t pc, const struct frame_sym *f, char *buf, size_t cap)
{
	if (!f->found)
		return fmt_buf(buf, cap, "0x%lx", (unsigned long)pc);
	return fmt_buf(buf, cap, "%s+0x%lx/0x%lx", f->name, f->off, f->size);
}

void sym_function(uintptr_t pc, int exact, char *buf, size_t cap)
{
	struct frame_sym f; /* callers may not hold the report lock yet */
	sym_lookup(pc, exact, &f);
	sym_demangle(&f, 1);
	describe(pc, &f, buf, cap);
}

void sym_function_name(uintptr_t pc, int exact, char *buf, size_t cap)
{
	struct frame_sym f;
	sym_lookup(pc, exact, &f);
	sym_demangle(&f, 1);
	fmt_buf(buf, cap, "%s", f.found ? f.name : "");
}

void sym_title_function(uintptr_t pc, int exact, char *buf, size_t cap)
{
	struct frame_sym f;
	char name[1024];
	if (sym_inlined_title(pc, exact, buf, cap))
		return;
	sym_lookup(pc, exact, &f);
	if (opt.symbolize && opt.symbolizer != SYMBOLIZER_EXTERNAL && f.found &&
	    !cxx_demangle_name(f.name, name, sizeof(name)))
		fmt_buf(f.name, sizeof(f.name), "%s", name);
	else
		sym_demangle(&f, 1);
	describe(pc, &f, buf, cap);
}

/* The current directory, with a '/': asked again for each report, but in a
 * sandbox (where getcwd may be refused) the one seen before it. */
static char cwd[256];

static size_t current_dir(void)
{
	char now[sizeof(cwd)];
	if (!os_sandboxed() && getcwd(now, sizeof(now) - 1))
		fmt_buf(cwd, sizeof(cwd), "%s/", now);
	return strlen(cwd);
}

/* Paths under the current directory (cwdlen bytes of cwd) are shown
 * relative to it. */
static void set_line(char *dst, size_t cap, const char *line, size_t cwdlen)
{
	if (cwdlen && !strncmp(line, cwd, cwdlen))
		line += cwdlen;
	fmt_buf(dst, cap, "%s", line);
}

void sym_shown_path(char *dst, size_t cap, const char *path)
{
	set_line(dst, cap, path, current_dir());
}

/* file:line for each frame of one module from its DWARF line tables, in
 * this process; -1 when they cannot be read here. */
int sym_lines_internal(struct module *m, const uintptr_t *pcs, int n, int first_exact,
                       char lines[][160])
{
	static char found[64][160];
	uint64_t rel[64];
	int idx[64], na = 0;
	for (int i = 0; i < n && na < 64; i++) {
		if (sym_module_of(pcs[i]) != m)
			continue;
		rel[na] = pcs[i] - m->bias - ((i == 0 && first_exact) ? 0 : 1);
		idx[na++] = i;
	}
	if (!na)
		return 0;
	if ((!m->file || dwarf_lines(m->file, m->size, rel, na, found[0], sizeof(found[0]))) &&
	    (!m->dfile || dwarf_lines(m->dfile, m->dsize, rel, na, found[0], sizeof(found[0]))))
		return -1;
	size_t cwdlen = current_dir();
	for (int j = 0; j < na; j++)
		if (found[j][0])
			set_line(lines[idx[j]], sizeof(lines[0]), found[j], cwdlen);
	return 0;
}

/* file:line for each frame of one module, by one addr2line run. */
static void lines_for_module(struct module *m, const uintptr_t *pcs, int n, int first_exact,
                             char lines[][160])
{
	static char argbuf[64 * 24];
	static char out[16384];
	const char *argv[80];
	int idx[64], na = 0;
	size_t used = 0;
	static char obj[280];
	const char *tool = line_tool;
	int nfixed;
	if (tool) {
		fmt_buf(obj, sizeof(obj), "--obj=%s", m->path);
		argv[0] = tool;
		argv[1] = obj;
		argv[2] = "--no-inlines";
		argv[3] = "--functions=none";
		argv[4] = "--output-style=GNU";
		nfixed = 5;
	} else {
		argv[0] = "addr2line";
		argv[1] = "-e";
		argv[2] = m->path;
		nfixed = 3;
	}
	for (int i = 0; i < n && na < 64; i++) {
		if (sym_module_of(pcs[i]) != m)
			continue;
		uintptr_t rel = pcs[i] - m->bias - ((i == 0 && first_exact) ? 0 : 1);
		argv[nfixed + na] = argbuf + used;
		used +=
		    fmt_buf(argbuf + used, sizeof(argbuf) - used, "0x%lx", (unsigned long)rel) + 1;
		idx[na++] = i;
	}
	argv[nfixed + na] = NULL;
	if (!na || os_run_capture(argv, out, sizeof(out), 5000) <= 0)
		return;
	size_t cwdlen = current_dir();
	char *line = out;
	for (int j = 0; j < na && *line; j++) {
		char *nl = strchr(line, '\n');
		if (nl)
			*nl = 0;
		char *disc = strstr(line, " (discriminator");
		if (disc)
			*disc = 0;
		if (line[0] != '?' && !strstr(line, ":?") && !strstr(line, ":0"))
			set_line(lines[idx[j]], sizeof(lines[0]), line, cwdlen);
		if (!nl)
			break;
		line = nl + 1;
	}
}

/* file:line for one module's frames: in-process first, and llvm-symbolizer
 * where the in-process reader cannot answer, as ukasan.symbolizer says. */
void sym_lines_of(struct module *m, const uintptr_t *pcs, int n, int first_exact, char lines[][160])
{
	if (!opt.symbolize || !m->has_debug)
		return;
	if (opt.symbolizer != SYMBOLIZER_EXTERNAL &&
	    !sym_lines_internal(m, pcs, n, first_exact, lines))
		return;
	if (opt.symbolizer != SYMBOLIZER_INTERNAL && may_run_helpers())
		lines_for_module(m, pcs, n, first_exact, lines);
}

void sym_lines_all(const uintptr_t *pcs, int n, int first_exact, char lines[][160])
{
	struct module *done[64];
	int ndone = 0;
	for (int i = 0; i < n; i++)
		lines[i][0] = 0;
	for (int i = 0; i < n && opt.symbolize; i++) {
		struct module *m = sym_module_of(pcs[i]);
		int seen = 0;
		for (int j = 0; j < ndone; j++)
			seen |= done[j] == m;
		if (!m || seen || !m->has_debug)
			continue;
		done[ndone++] = m;
		sym_lines_of(m, pcs, n, first_exact, lines);
	}
}
