/* Linked into every program and library built with ukasan-cc: its presence
 * tells libukasan.so (a weak reference there) which mode the code was
 * built for. Compiled twice: ukasan_marker.o (generic) and
 * ukasan_marker_sw_tags.o (-DUKASAN_SW_TAGS). */
#ifdef UKASAN_SW_TAGS
__attribute__((visibility("default"))) const int __ukasan_sw_tags_mode = 1;
#else
#define _GNU_SOURCE
#include <dlfcn.h>
#include <string.h>
#include <unistd.h>

__attribute__((visibility("default"))) const int __ukasan_generic_mode = 1;

extern int __ukasan_shadow_live;

static void say(const char *s)
{
	if (write(2, s, strlen(s)) < 0)
		return; /* nowhere else to say it */
}

/* A library of ours loaded into a program whose runtime chose its mode
 * without it: libukasan.so preloaded into python3 or node, whose own
 * executable carries no marker, starts KFENCE-only, with no shadow, and
 * this library's first checked access would fault on shadow never
 * reserved (a SIGSEGV with no report). Turning generic mode on now would
 * hand KASAN's free every object glibc made before, so it is refused with
 * the way to run it, as ASan refuses a runtime that is not loaded first.
 * The runtime's constructor runs before ours (it is our DT_NEEDED), so a
 * runtime that comes in with this library has already decided. */
__attribute__((constructor)) static void ukasan_needs_shadow(void)
{
	if (__ukasan_shadow_live)
		return;
	Dl_info info;
	const char *name = "a library";
	if (dladdr((void *)ukasan_needs_shadow, &info) && info.dli_fname && *info.dli_fname)
		name = info.dli_fname;
	say("ukasan: ");
	say(name);
	say(" was built with ukasan-cc, but ukasan runs this program without shadow memory "
	    "(KFENCE only); run it with generic KASAN from the start: ukasan run --kasan "
	    "PROGRAM ..., or LD_PRELOAD=libukasan.so UKASAN_OPTIONS=ukasan.generic=on\n");
	_exit(1);
}
#endif
