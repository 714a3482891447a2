import ArgumentParser
import Foundation
import SigilASN1

struct PEMCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pem",
        abstract: "Convert between PEM and DER.",
        subcommands: [Decode.self, Encode.self])

    struct Decode: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the PEM blocks of a file as JSON (label, DER length, DER base64), or write one block's DER with --out.")

        @Option(help: "Write the DER of the block at this index (0-based) to --out.")
        var index: Int?

        @Option(help: "Output file for --index.")
        var out: String?

        @Argument(help: "PEM file, or - for standard input.")
        var file: String = "-"

        func run() {
            reportingErrors {
                let text = String(decoding: try Input.read(file), as: UTF8.self)
                let blocks = try PEMDocument.parseAll(text)
                if let index {
                    guard blocks.indices.contains(index), let out else {
                        throw CLIFailure(code: "usage", message: "--index needs --out and a block that exists (found \(blocks.count))")
                    }
                    guard FileManager.default.createFile(atPath: out, contents: Data(blocks[index].derBytes)) else {
                        throw CLIFailure(code: "io.write", message: "cannot write \(out)")
                    }
                }
                Output.printJSON([
                    "blocks": blocks.map {
                        [
                            "label": $0.label, "derLength": $0.derBytes.count,
                            "derBase64": Base64.encode($0.derBytes),
                        ] as [String: Any]
                    }
                ])
            }
        }
    }

    struct Encode: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Wrap a DER file in a PEM block (the DER is checked first).")

        @Option(help: "The PEM label, e.g. CERTIFICATE or PUBLIC KEY.")
        var label: String

        @Argument(help: "DER file, or - for standard input.")
        var file: String = "-"

        func run() {
            reportingErrors {
                let der = try Input.read(file)
                _ = try DER.parse(der)
                print(PEMDocument(label: label, derBytes: der).pemString, terminator: "")
            }
        }
    }
}
