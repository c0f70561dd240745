#ifndef UKASAN_CORE_INIT_H
#define UKASAN_CORE_INIT_H

/* Set up on first use: the first malloc may come before any constructor. */
int ukasan_ready(void);
void ukasan_init(void);

#endif
