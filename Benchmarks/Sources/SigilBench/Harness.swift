import Foundation

/// A minimal side-by-side timing harness: runs each closure repeatedly for a fixed wall-clock
/// budget after a warm-up, and reports operations per second. Results feed a checksum that is
/// printed, so the optimiser cannot drop the work.
struct Harness {
    let seconds: Double
    var checksum: UInt64 = 0

    /// `SIGIL_BENCH_CPU_TIME=1`: budget and rate in this thread's CPU time (CLOCK_THREAD_CPUTIME_ID)
    /// instead of wall time, so time the thread spends descheduled on a shared, loaded machine counts
    /// for neither side of a row.
    static let usesThreadCPUTime = ProcessInfo.processInfo.environment["SIGIL_BENCH_CPU_TIME"] == "1"

    static func threadCPUSeconds() -> Double { cpuSeconds(CLOCK_THREAD_CPUTIME_ID) }

    /// The process's CPU time: for async rows, whose task may resume on another thread (the
    /// benchmark runs one task at a time, so it is that task's time plus the runtime's).
    static func processCPUSeconds() -> Double { cpuSeconds(CLOCK_PROCESS_CPUTIME_ID) }

    private static func cpuSeconds(_ clock: clockid_t) -> Double {
        var time = timespec()
        clock_gettime(clock, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    mutating func opsPerSecond(_ body: () -> UInt64) -> Double {
        if Harness.usesThreadCPUTime {
            let warmEnd = Harness.threadCPUSeconds() + seconds / 10
            while Harness.threadCPUSeconds() < warmEnd { checksum &+= body() }
            var iterations = 0
            let start = Harness.threadCPUSeconds()
            var now = start
            while now < start + seconds {
                for _ in 0..<8 { checksum &+= body() }
                iterations += 8
                now = Harness.threadCPUSeconds()
            }
            return Double(iterations) / (now - start)
        }
        // Warm-up: a tenth of the budget.
        let clock = ContinuousClock()
        let warmEnd = clock.now.advanced(by: .milliseconds(Int(seconds * 100)))
        while clock.now < warmEnd { checksum &+= body() }
        var iterations = 0
        let start = clock.now
        let end = start.advanced(by: .milliseconds(Int(seconds * 1000)))
        var now = start
        while now < end {
            for _ in 0..<8 { checksum &+= body() }
            iterations += 8
            now = clock.now
        }
        let elapsed = start.duration(to: now)
        let secondsElapsed = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return Double(iterations) / secondsElapsed
    }
}

struct Row {
    let name: String
    let sigil: Double
    let reference: Double
    let referenceName: String
    /// Bytes processed per operation, for throughput columns (0: not a byte-stream benchmark).
    let bytesPerOp: Int
}

func format(_ rows: [Row]) -> String {
    func number(_ v: Double) -> String {
        v >= 100 ? String(Int(v.rounded())) : String(format: "%.1f", v)
    }
    var lines = ["| benchmark | Sigil ops/s | reference | reference ops/s | Sigil / reference |", "|---|---:|---|---:|---:|"]
    for row in rows {
        var sigil = number(row.sigil)
        var reference = number(row.reference)
        if row.bytesPerOp > 0 {
            sigil += String(format: " (%.0f MB/s)", row.sigil * Double(row.bytesPerOp) / 1e6)
            reference += String(format: " (%.0f MB/s)", row.reference * Double(row.bytesPerOp) / 1e6)
        }
        lines.append(
            "| \(row.name) | \(sigil) | \(row.referenceName) | \(reference) | \(String(format: "%.2f", row.sigil / row.reference))× |")
    }
    return lines.joined(separator: "\n")
}
