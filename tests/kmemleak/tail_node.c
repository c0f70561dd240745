// MODE: generic
// Generic mode's objects of 40 bytes end at glibc's next size field, as
// they do under the preload (preload_tail_node.c): an object reached only
// through a list node that is its last member is no leak. The node's
// address is then the object's last 8 bytes, 16-aligned: where glibc's
// next chunk header begins, which the arena points at while that chunk is
// free. When the next chunk holds a live object, nothing of the arena's
// points there, and the pointer is the program's. A lost object is still
// reported.
// CFLAGS: -O1
// STATUS: 1
// EXPECT-RE: unreferenced object 0x[0-9a-f]{16} \(size 100\):(\n.*){5,16}\n    \[<[0-9a-f]+>\] lose_one\+0x
// COUNT: 1 unreferenced object 0x
#include "_tail_node.h"
