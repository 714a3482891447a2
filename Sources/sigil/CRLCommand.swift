import ArgumentParser
import Foundation
import SigilASN1
import SigilCRL
import SigilX509

/// `sigil crl show`: every field of a CRL (RFC 5280 §5), its extensions and its entries.
struct CRLCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "crl", abstract: "Inspect certificate revocation lists.", subcommands: [Show.self])

    /// The CRLs in a file (DER, or PEM "X509 CRL" blocks).
    static func load(_ path: String) throws -> [CRL] {
        try CRL.load(try Input.read(path))
    }

    static func names(_ names: [GeneralName]) -> [String] { names.map(\.description) }

    static func idpJSON(_ idp: IssuingDistributionPoint) -> [String: Any] {
        var value: [String: Any] = [
            "onlyContainsUserCerts": idp.onlyContainsUserCerts, "onlyContainsCACerts": idp.onlyContainsCACerts,
            "onlyContainsAttributeCerts": idp.onlyContainsAttributeCerts, "indirectCRL": idp.indirectCRL,
        ]
        if let full = idp.fullName { value["fullName"] = names(full) }
        if let relative = idp.nameRelativeToCRLIssuer { value["nameRelativeToCRLIssuer"] = Output.hex(relative) }
        if let reasons = idp.onlySomeReasons { value["onlySomeReasons"] = reasons.setNames }
        return value
    }

    static func json(_ crl: CRL) -> [String: Any] {
        var out: [String: Any] = [
            "version": crl.version,
            "signatureAlgorithm": ["oid": crl.signatureAlgorithmIdentifier.algorithm.dotted, "name": crl.signatureAlgorithm.description],
            "issuer": crl.issuer.rfc4514String,
            "thisUpdate": Time.rfc3339(crl.thisUpdateComponents),
            "nextUpdate": crl.nextUpdateComponents.map(Time.rfc3339) ?? NSNull(),
            "entryCount": crl.entryCount,
            "signature": Output.hex(crl.signature),
        ]
        if let number = crl.crlNumber { out["crlNumber"] = number.description }
        if let base = crl.deltaCRLIndicator { out["deltaCRLIndicator"] = base.description }
        if let idp = crl.issuingDistributionPoint { out["issuingDistributionPoint"] = idpJSON(idp) }
        if let akid = crl.authorityKeyIdentifier?.keyIdentifier { out["authorityKeyIdentifier"] = Output.hex(akid) }
        if let freshest = crl.freshestCRL { out["freshestCRL"] = freshest.map { $0.fullName.map(names) ?? [] } }
        if !crl.unhandledCriticalExtensions.isEmpty { out["unhandledCriticalExtensions"] = crl.unhandledCriticalExtensions.map(\.dotted) }
        out["extensions"] = crl.extensions.map { extensionJSON($0, crl: crl, entry: nil) }
        out["entries"] = crl.entries.map { entry -> [String: Any] in
            var e: [String: Any] = ["serial": entry.serialNumberHex, "revocationDate": Time.rfc3339(entry.revocationDateComponents)]
            if let reason = entry.reason { e["reason"] = reason.description }
            if let date = entry.invalidityDate { e["invalidityDate"] = Time.rfc3339(date) }
            if let issuer = entry.effectiveCertificateIssuer { e["certificateIssuer"] = names(issuer) }
            if !entry.extensions.isEmpty { e["extensions"] = entry.extensions.map { extensionJSON($0, crl: crl, entry: entry) } }
            return e
        }
        return out
    }

    /// An extension with its decoded value: the CRL and entry extensions of RFC 5280 §5.2–§5.3
    /// from the parsed CRL, the others as `x509 show` describes them.
    static func extensionJSON(_ e: Extension, crl: CRL, entry: RevokedCertificate?) -> [String: Any] {
        var value: Any = X509Command.describe(e.value, raw: e.rawValue)
        switch e.oid {
        case X509OIDs.cRLNumber: value = crl.crlNumber?.description ?? value
        case X509OIDs.deltaCRLIndicator: value = crl.deltaCRLIndicator?.description ?? value
        case X509OIDs.issuingDistributionPoint: value = crl.issuingDistributionPoint.map(idpJSON) ?? value
        case X509OIDs.freshestCRL: value = crl.freshestCRL?.map { $0.fullName.map(names) ?? [] } ?? value
        case X509OIDs.reasonCode: value = entry?.reason?.description ?? value
        case X509OIDs.invalidityDate: value = entry?.invalidityDate.map(Time.rfc3339) ?? value
        case X509OIDs.certificateIssuer: value = entry?.certificateIssuer.map(names) ?? value
        default: break
        }
        return ["oid": e.oid.dotted, "name": e.name, "critical": e.critical, "value": value]
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print every field and entry of a CRL (DER or PEM \"X509 CRL\").")

        @Flag(help: "JSON output (an array, one object per CRL).") var json = false
        @Argument(help: "The CRL file, or - for standard input.") var file: String

        func run() {
            reportingErrors {
                let objects = try CRLCommand.load(file).map(CRLCommand.json)
                if json {
                    Output.printJSON(objects)
                    return
                }
                for (index, object) in objects.enumerated() {
                    if index > 0 { print("") }
                    for key in [
                        "issuer", "version", "thisUpdate", "nextUpdate", "crlNumber", "deltaCRLIndicator", "authorityKeyIdentifier",
                        "entryCount",
                    ] {
                        if let value = object[key] { print("\(key): \(value)") }
                    }
                    if let algorithm = object["signatureAlgorithm"] as? [String: Any] {
                        print("signatureAlgorithm: \(algorithm["name"] ?? "")")
                    }
                    if let idp = object["issuingDistributionPoint"] as? [String: Any] {
                        print(
                            "issuingDistributionPoint: \(idp.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " "))"
                        )
                    }
                    for e in object["extensions"] as? [[String: Any]] ?? [] {
                        print("extension \(e["name"] ?? "")\((e["critical"] as? Bool) == true ? " (critical)" : ""): \(e["value"] ?? "")")
                    }
                    for entry in object["entries"] as? [[String: Any]] ?? [] {
                        var line = "revoked \(entry["serial"] ?? "") at \(entry["revocationDate"] ?? "")"
                        if let reason = entry["reason"] { line += " reason \(reason)" }
                        if let date = entry["invalidityDate"] { line += " invalid since \(date)" }
                        if let issuer = entry["certificateIssuer"] as? [String] { line += " issuer \(issuer.joined(separator: "; "))" }
                        print(line)
                    }
                }
            }
        }
    }
}
