// The file whose initialiser reads y, defined in another file.
extern int y;
__attribute__((noinline)) int read_y()
{
	return y;
}
int x = read_y() + 1;
