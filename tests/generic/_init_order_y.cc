// The other file of the initialisation-order tests: y is dynamically
// initialised (the volatile keeps the compiler from folding it into a
// constant).
static int init_y()
{
	volatile int v = 42;
	return v;
}
int y = init_y();
