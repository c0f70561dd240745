/* CWE-121 Stack-based Buffer Overflow: BAD.
 * Bug: a loop assigns 11 elements of a stack array of 10 objects.
 * Good twin: cwe121_48_class_array_loop_off_by_one_good.cc
 */
#include <cstdio>

struct Point {
	int x = 0;
	int y = 0;
};

int main()
{
	Point points[10];
	int n = 10;

	for (int i = 0; i <= n; i++) {
		points[i].x = i;
		points[i].y = 2 * i;
	}
	std::printf("%d %d\n", points[0].x, points[9].y);
	return 0;
}
