import CFieldCeilingBMI2ADX
import CFieldCeilingBaseline
@_spi(Benchmarks) import SigilCore

/// The P-256/P-384 field ceiling: the generated Swift Montgomery multiplication and squaring
/// against the same statements in C (Sources/CFieldCeiling*, written by generate_fields.py),
/// compiled for baseline x86-64 and with -mbmi2 -madx. Each figure is the latency of one operation
/// in a dependent chain of `chain` operations; the C chains must end on the Swift chain's value.
enum FieldCeiling {
    enum Variant: String, CaseIterable {
        case swift = "Swift (generated)"
        case baseline = "C, baseline x86-64"
        case bmi2adx = "C, -mbmi2 -madx"
    }
    enum Operation: String, CaseIterable {
        case multiply, square
    }

    /// Runs one chain of `count` operations; returns limb 0 of the result.
    static func run(_ variant: Variant, _ operation: Operation, _ curve: ECCurve, count: Int) -> UInt64 {
        if variant == .swift {
            return Microbenchmarks.run(operation == .multiply ? .fieldMultiply : .fieldSquare, curve: curve, iterations: count)
        }
        let operands = Microbenchmarks.fieldOperands(curve: curve)
        var x = operands.a
        let b = operands.b
        x.withUnsafeMutableBufferPointer { xs in
            b.withUnsafeBufferPointer { bs in
                let x = xs.baseAddress!
                let b = bs.baseAddress!
                switch (variant, operation, curve) {
                case (.baseline, .multiply, .p256): sigil_ceiling_baseline_p256_multiply_chain(x, b, count)
                case (.baseline, .square, .p256): sigil_ceiling_baseline_p256_square_chain(x, count)
                case (.baseline, .multiply, .p384): sigil_ceiling_baseline_p384_multiply_chain(x, b, count)
                case (.baseline, .square, .p384): sigil_ceiling_baseline_p384_square_chain(x, count)
                case (.bmi2adx, .multiply, .p256): sigil_ceiling_bmi2adx_p256_multiply_chain(x, b, count)
                case (.bmi2adx, .square, .p256): sigil_ceiling_bmi2adx_p256_square_chain(x, count)
                case (.bmi2adx, .multiply, .p384): sigil_ceiling_bmi2adx_p384_multiply_chain(x, b, count)
                case (.bmi2adx, .square, .p384): sigil_ceiling_bmi2adx_p384_square_chain(x, count)
                case (.swift, _, _): break
                }
            }
        }
        return x[0]
    }

    /// The table: ns per operation for each curve, operation and variant, in one run. Exits with an
    /// error if a C chain does not end on the Swift chain's value.
    static func table(harness: inout Harness, chain: Int = 1000) -> String {
        var lines = [
            "| operation | Swift (generated) ns | C baseline x86-64 ns | C -mbmi2 -madx ns | Swift / C baseline | Swift / C BMI2+ADX |",
            "|---|---:|---:|---:|---:|---:|",
        ]
        for curve in [ECCurve.p256, .p384] {
            for operation in Operation.allCases {
                let expected = run(.swift, operation, curve, count: chain)
                var nanoseconds: [Double] = []
                for variant in Variant.allCases {
                    let result = run(variant, operation, curve, count: chain)
                    if result != expected {
                        fatalError("\(variant.rawValue) \(operation) \(curve): chain ends on \(result), Swift on \(expected)")
                    }
                    let rate = harness.opsPerSecond { run(variant, operation, curve, count: chain) }
                    nanoseconds.append(1e9 / (rate * Double(chain)))
                }
                let name = "\(curve == .p256 ? "P-256" : "P-384") field \(operation)"
                let cells = nanoseconds.map { String(format: "%.2f", $0) }
                lines.append(
                    "| \(name) | \(cells.joined(separator: " | ")) | "
                        + String(format: "%.2f× | %.2f×", nanoseconds[0] / nanoseconds[1], nanoseconds[0] / nanoseconds[2]) + " |")
            }
        }
        return lines.joined(separator: "\n")
    }
}
