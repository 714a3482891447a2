// Test-only C shim for the valgrind constant-time check (as libsecp256k1's ctime test does):
// memcheck client requests that mark secret bytes undefined (so any branch or memory index that
// depends on them is reported) and mark public results defined again. Without valgrind's headers
// the functions compile to no-ops and sigil_ctime_available() returns 0.
#ifndef SIGIL_CTIME_SHIM_H
#define SIGIL_CTIME_SHIM_H
#include <stddef.h>

void sigil_ctime_mark_secret(const void *address, size_t length);
void sigil_ctime_mark_public(const void *address, size_t length);
int sigil_ctime_available(void);
int sigil_ctime_running_on_valgrind(void);
#endif
