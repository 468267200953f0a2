// Declarations only (see include/CFuzzerDriver.h); libFuzzer itself comes with -sanitize=fuzzer.
#include "CFuzzerDriver.h"
