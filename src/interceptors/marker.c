/* Linked into every program and library built with ukasan-cc: its presence
 * tells libukasan.so (a weak reference there) which mode the code was
 * built for. Compiled twice: ukasan_marker.o (generic) and
 * ukasan_marker_sw_tags.o (-DUKASAN_SW_TAGS). */
#ifdef UKASAN_SW_TAGS
__attribute__((visibility("default"))) const int __ukasan_sw_tags_mode = 1;
#else
__attribute__((visibility("default"))) const int __ukasan_generic_mode = 1;
#endif
