/* Reads one element past the end of a heap array. */
#include <stdio.h>
#include <stdlib.h>

struct point {
	int x, y;
};

static int sum_x(const struct point *pts, int n)
{
	int s = 0;
	for (int i = 0; i <= n; i++) /* off by one */
		s += pts[i].x;
	return s;
}

int main(void)
{
	struct point *pts = malloc(4 * sizeof(*pts));
	for (int i = 0; i < 4; i++)
		pts[i] = (struct point){i, -i};
	printf("sum %d\n", sum_x(pts, 4));
	free(pts);
	return 0;
}
