/* Inline functions whose rows come from a header in check_dwarf_lines. */
static inline int mix(int a, int b)
{
	int r = a * 31;
	r ^= b << 3;
	if (r & 1)
		r += b;
	return r;
}

#define TWICE(x) ((x) + (x))
