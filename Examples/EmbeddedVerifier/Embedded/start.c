// The C side of the Embedded Swift build of the embedding example (Sources/embedded-verifier/main.swift
// compiled as Embedded Swift, linked statically against musl by Scripts/check-embedded): main keeps
// the command line for the Swift program, which Embedded Swift cannot read by itself, and
// arc4random_buf, which the standard library's hash seed calls and musl does not have, reads the
// kernel's random source.
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <sys/random.h>

static int saved_count;
static char **saved_vector;

int sigil_example_argument_count(void) { return saved_count; }

const char *sigil_example_argument(int index) { return saved_vector[index]; }

void arc4random_buf(void *buffer, size_t count) {
    unsigned char *out = buffer;
    while (count > 0) {
        ssize_t got = getrandom(out, count, 0);
        if (got < 0 && errno == EINTR) continue;
        if (got < 0) abort(); // never hand out bytes that are not random
        out += got;
        count -= (size_t)got;
    }
}

// The Swift program's top-level code, renamed from main by -entry-point-function-name.
int sigil_example_main(int count, char **vector);

int main(int count, char **vector) {
    saved_count = count;
    saved_vector = vector;
    return sigil_example_main(count, vector);
}
