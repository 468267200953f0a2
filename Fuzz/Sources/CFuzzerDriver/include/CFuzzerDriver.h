// libFuzzer's driver, called from a Swift main: SwiftPM gives every executable its own
// `main` (the module's entry point), so libFuzzer's `main` is never the one that runs.
#ifndef ALBUMKIT_CFUZZERDRIVER_H
#define ALBUMKIT_CFUZZERDRIVER_H
#include <stddef.h>
#include <stdint.h>
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));
#endif
