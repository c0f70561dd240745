/* Linked into every program and library built with ukasan-cc: its presence
 * turns on generic mode in libukasan.so (a weak reference there). */
__attribute__((visibility("default"))) const int __ukasan_generic_mode = 1;
