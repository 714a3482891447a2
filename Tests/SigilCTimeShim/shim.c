#include "SigilCTimeShim.h"

#if defined(__has_include)
#  if __has_include(<valgrind/memcheck.h>)
#    include <valgrind/memcheck.h>
#    define SIGIL_HAVE_VALGRIND 1
#  endif
#endif

#ifdef SIGIL_HAVE_VALGRIND
void sigil_ctime_mark_secret(const void *address, size_t length) { VALGRIND_MAKE_MEM_UNDEFINED(address, length); }
void sigil_ctime_mark_public(const void *address, size_t length) { VALGRIND_MAKE_MEM_DEFINED(address, length); }
int sigil_ctime_available(void) { return 1; }
int sigil_ctime_running_on_valgrind(void) { return RUNNING_ON_VALGRIND ? 1 : 0; }
#else
void sigil_ctime_mark_secret(const void *address, size_t length) { (void)address; (void)length; }
void sigil_ctime_mark_public(const void *address, size_t length) { (void)address; (void)length; }
int sigil_ctime_available(void) { return 0; }
int sigil_ctime_running_on_valgrind(void) { return 0; }
#endif
