/* CWE-761 Free of Pointer not at Start of Buffer: GOOD, the fixed twin of
 * cwe761_13_delete_member_of_new_object_bad.cc.
 * Bug there: delete is applied to a pointer to the second base of an object
 * from new, whose class has no virtual destructor.
 * Fixed here: the object is deleted through its own type.
 */
#include <cstdio>

struct Header {
	long tag = 1;
};

struct Body {
	long size = 2;
};

struct Packet : Header, Body {
	long extra = 3;
};

int main()
{
	Packet *p = new Packet;
	Body *body = p; /* points 8 bytes into the object */

	std::printf("%ld\n", body->size + p->tag);
	delete p;
	return 0;
}
