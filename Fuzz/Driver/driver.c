// Intentionally empty: the declaration in include/SigilFuzzDriver.h is all this target provides;
// libFuzzer (linked by -sanitize=fuzzer) defines the function.
