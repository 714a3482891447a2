// libFuzzer's driver, called from each fuzz target's main (libFuzzer's own main is not linked:
// SwiftPM gives executables a main of their own). Declared by libFuzzer in FuzzerInterface.h.
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));
