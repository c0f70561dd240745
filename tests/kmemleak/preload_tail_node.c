// Under the preload on glibc's malloc, an object reached only through a
// list node that is its last member is no leak. The node's address is then
// the object's last 8 bytes, 16-aligned: where glibc's next chunk header
// begins, which the arena points at while that chunk is free. When the next
// chunk holds a live object, nothing of the arena's points there, and the
// pointer is the program's (PostgreSQL's background-worker list was
// reported as a leak). A lost object is still reported.
// RUN: kmemleak=on kfence.sample_interval=0
// CFLAGS: -O1
// STATUS: 1
// EXPECT-RE: unreferenced object 0x[0-9a-f]{16} \(size 100\):(\n.*){5,16}\n    \[<[0-9a-f]+>\] lose_one\+0x
// COUNT: 1 unreferenced object 0x
#include "_tail_node.h"
