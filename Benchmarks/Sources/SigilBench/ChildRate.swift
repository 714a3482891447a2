import Dispatch

/// Calls of `body` per second over at least `seconds` of wall time, in batches of 10: the one
/// timing loop of the child-process modes (`--applepay-rate`, `--mdoc-rate`, `--ecdh-rate`), the
/// counterpart of Benchmarks/python/rates.py.
func childRate(seconds: Double, _ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    var count = 0
    while Double(DispatchTime.now().uptimeNanoseconds - start) < seconds * 1e9 {
        for _ in 0..<10 { try body() }
        count += 10
    }
    return Double(count) / (Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
}
