/* Built twice, as liba.so (-DNAME=a_touch) and libb.so (-DNAME=b_touch):
 * the same code under two names, loaded one after the other at the same
 * address. */
__attribute__((noinline)) char NAME(volatile char *p)
{
	return p[3];
}
