/* The runtime's copies and fills (rt_mem, base/compiler.h): set up once,
 * early in the runtime's start. */
#ifndef UKASAN_PLATFORM_MEM_H
#define UKASAN_PLATFORM_MEM_H

void mem_functions_init(void);

#endif
