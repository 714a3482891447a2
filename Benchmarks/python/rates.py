"""The one timing loop of the Python benchmarks (bench.py, applepay.py): calls per second."""
import time


def rate(call, seconds):
    """Calls of `call` per second over at least `seconds` of wall time, after one warm-up call (for
    Sigil, the one that fills its chain cache), in batches of 10."""
    call()
    count, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _ in range(10):
            call()
        count += 10
    return count / (time.perf_counter() - start)
