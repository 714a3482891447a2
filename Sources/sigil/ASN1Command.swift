import ArgumentParser
import SigilASN1

struct ASN1Command: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "asn1",
        abstract: "Inspect ASN.1 encodings.",
        subcommands: [Dump.self])

    struct Dump: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Parse a DER (or, with --ber, BER) file or one PEM block and print its tree as JSON.",
            discussion: "Each node: offset, depth, tag, form, header and content lengths, and the decoded value of universal primitives.")

        @Flag(help: "Use the BER reader (indefinite lengths, segmented strings) instead of strict DER.")
        var ber = false

        @Argument(help: "File holding DER/BER bytes or a PEM block, or - for standard input.")
        var file: String = "-"

        func run() {
            reportingErrors {
                let (der, label) = try Input.derOrPEM(try Input.read(file))
                let root = ber ? try BER.parse(der) : try DER.parse(der)
                var output: [String: Any] = ["rules": ber ? "BER" : "DER", "bytes": der.count, "root": describe(root)]
                if let label { output["pemLabel"] = label }
                Output.printJSON(output)
            }
        }

        private func describe(_ node: ASN1Node) -> [String: Any] {
            var out: [String: Any] = [
                "offset": node.offset,
                "tag": node.identifier.description,
                "constructed": node.isConstructed,
                "headerLength": node.contentBytes.startIndex - node.encodedBytes.startIndex,
                "length": node.contentBytes.count,
                "indefiniteLength": node.isIndefiniteLength,
            ]
            if node.isConstructed {
                out["children"] = node.children.map(describe)
            }
            if let value = value(node) { out["value"] = value }
            return out
        }

        /// The decoded value of a universal primitive, or a reason it does not decode.
        private func value(_ node: ASN1Node) -> String? {
            do {
                switch node.identifier {
                case .boolean: return String(try Bool(node: node))
                case .integer, .enumerated: return try ASN1Integer(node: node, identifier: node.identifier).description
                case .objectIdentifier: return try ASN1ObjectIdentifier(node: node).dotted
                case .null:
                    _ = try ASN1Null(node: node)
                    return "NULL"
                case .utf8String: return try ASN1UTF8String(node: node).value
                case .printableString: return try ASN1PrintableString(node: node).value
                case .ia5String: return try ASN1IA5String(node: node).value
                case .visibleString: return try ASN1VisibleString(node: node).value
                case .numericString: return try ASN1NumericString(node: node).value
                case .bmpString: return try ASN1BMPString(node: node).value
                case .utcTime: return try ASN1UTCTime(node: node).description
                case .generalizedTime: return try ASN1GeneralizedTime(node: node).description
                case .octetString where !node.isConstructed:
                    return Output.hex(try ASN1OctetString(node: node).bytes)
                case .bitString where !node.isConstructed:
                    let bits = try ASN1BitString(node: node)
                    return Output.hex(bits.bytes) + (bits.unusedBits > 0 ? " (\(bits.unusedBits) unused bits)" : "")
                default:
                    return node.isConstructed ? nil : Output.hex(node.contentBytes)
                }
            } catch {
                return "invalid: \(error)"
            }
        }
    }
}
