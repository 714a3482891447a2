import SigilFuzzDriver
import SigilFuzzHarness

// libFuzzer target "mdoc": FuzzHarness.mdoc on every input (built only by Fuzz/run).
#if canImport(Glibc)
import Glibc
#endif

var argc = CommandLine.argc
var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
exit(
    LLVMFuzzerRunDriver(&argc, &argv) { data, size in
        FuzzHarness.mdoc(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
        return 0
    })
