/* The library's definition of G (its size from SZ), and a static of the
 * same name as the program's, which is no second definition. */
#ifndef SZ
#define SZ 20
#endif
int G[SZ];
static int S[SZ];

int lib_touch(int i)
{
	return G[i] + S[i];
}
