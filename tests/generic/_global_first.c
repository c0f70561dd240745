/* The first (and only) global of its file, linked after the test's own
 * file: it follows that file's global descriptors in .data. */
int first_global[10] = {5, 6, 7, 8, 9, 10, 11, 12, 13, 14};
