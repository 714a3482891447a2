import ArgumentParser
import Foundation
import SigilASN1
import SigilApplePKI
import SigilCRL
import SigilCore
import SigilKeys
import SigilX509

struct X509Command: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "x509", abstract: "Inspect certificates and validate chains.",
        subcommands: [Show.self, Verify.self])

    static func describe(_ value: ExtensionValue, raw: [UInt8]) -> Any {
        switch value {
        case .basicConstraints(let v):
            var out: [String: Any] = ["cA": v.isCA]
            if let length = v.pathLengthConstraint { out["pathLenConstraint"] = length }
            return out
        case .keyUsage(let v): return v.setNames
        case .extendedKeyUsage(let oids): return oids.map { X509OIDs.name($0) ?? $0.dotted }
        case .subjectKeyIdentifier(let id): return Output.hex(id)
        case .authorityKeyIdentifier(let v):
            var out: [String: Any] = [:]
            if let key = v.keyIdentifier { out["keyIdentifier"] = Output.hex(key) }
            if let issuer = v.authorityCertIssuer { out["authorityCertIssuer"] = issuer.map(\.description) }
            if let serial = v.authorityCertSerialNumber { out["authorityCertSerialNumber"] = Output.hex(serial) }
            return out
        case .authorityInfoAccess(let list):
            return list.map { ["method": X509OIDs.name($0.method) ?? $0.method.dotted, "location": $0.location.description] }
        case .cRLDistributionPoints(let points): return points.map { $0.fullName?.map(\.description) ?? [] }
        case .certificatePolicies(let policies):
            return policies.map { policy -> [String: Any] in
                var out: [String: Any] = ["policy": X509OIDs.name(policy.identifier) ?? policy.identifier.dotted]
                let texts = policy.qualifiers.compactMap(\.text)
                if !texts.isEmpty { out["qualifiers"] = texts }
                return out
            }
        case .subjectAltName(let names), .issuerAltName(let names): return names.map(\.description)
        case .nameConstraints(let v):
            return ["permitted": v.permitted.map(\.base.description), "excluded": v.excluded.map(\.base.description)]
        case .policyMappings(let v):
            return v.mappings.map {
                ["issuerDomainPolicy": $0.issuerDomainPolicy.dotted, "subjectDomainPolicy": $0.subjectDomainPolicy.dotted]
            }
        case .policyConstraints(let v):
            var out: [String: Any] = [:]
            if let n = v.requireExplicitPolicy { out["requireExplicitPolicy"] = n }
            if let n = v.inhibitPolicyMapping { out["inhibitPolicyMapping"] = n }
            return out
        case .inhibitAnyPolicy(let v): return v.skipCerts
        case .unknown: return Output.hex(raw)
        }
    }

    static func json(_ certificate: Certificate) -> [String: Any] {
        var publicKey: [String: Any]
        switch certificate.publicKey {
        case .ec(let key): publicKey = ["algorithm": "EC", "curve": key.curve == .p256 ? "P-256" : "P-384"]
        case .rsa(let info): publicKey = ["algorithm": info.isPSSOnly ? "RSASSA-PSS" : "RSA", "bits": info.key.modulusBits]
        case .unknown(let spki): publicKey = ["algorithm": spki.algorithm.algorithm.dotted]
        }
        let algorithmOID = certificate.signatureAlgorithmIdentifier.algorithm
        var out: [String: Any] = [
            "version": certificate.version,
            "serial": certificate.serialNumberHex,
            "signatureAlgorithm": ["oid": algorithmOID.dotted, "name": certificate.signatureAlgorithm.description],
            "issuer": certificate.issuer.rfc4514String,
            "subject": certificate.subject.rfc4514String,
            "notBefore": Time.rfc3339(certificate.validity.notBeforeComponents),
            "notAfter": Time.rfc3339(certificate.validity.notAfterComponents),
            "publicKey": publicKey,
            "extensions": certificate.extensions.map { e in
                [
                    "oid": e.oid.dotted, "name": AppleOIDs.name(e.oid) ?? AppleOIDs.applePayDisplayNames[e.oid] ?? e.name,
                    "critical": e.critical,
                    "value": describe(e.value, raw: e.rawValue),
                ] as [String: Any]
            },
            "sha256": Output.hex(certificate.sha256Fingerprint),
        ]
        if certificate.isSerialNumberNegative { out["serialIsNegative"] = true }
        return out
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print every field of certificates (DER, PEM or PEM bundles).")

        @Flag(help: "JSON output (an array, one object per certificate).") var json = false
        @Argument(help: "Certificate files, or - for standard input.") var files: [String]

        func run() {
            reportingErrors {
                // A PEM file may hold other blocks beside its certificates (a private key): those
                // are skipped, with a note on standard error.
                var certificates: [Certificate] = []
                for file in files {
                    let (found, skipped) = try Certificate.load(try Input.read(file), skippingForeignBlocks: true)
                    certificates += found
                    for label in skipped {
                        FileHandle.standardError.write(Data("note: \(file): skipped a PEM block \"\(label)\" (not a certificate)\n".utf8))
                    }
                }
                let objects = certificates.map(X509Command.json)
                if json {
                    Output.printJSON(objects)
                    return
                }
                for (index, object) in objects.enumerated() {
                    if index > 0 { print("") }
                    for key in ["subject", "issuer", "serial", "version", "notBefore", "notAfter", "sha256"] {
                        print("\(key): \(object[key] ?? "")")
                    }
                    if let algorithm = object["signatureAlgorithm"] as? [String: Any] {
                        print("signatureAlgorithm: \(algorithm["name"] ?? "")")
                    }
                    if let key = object["publicKey"] as? [String: Any] {
                        print("publicKey: \(key.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " "))")
                    }
                    for e in object["extensions"] as? [[String: Any]] ?? [] {
                        print("extension \(e["name"] ?? "")\((e["critical"] as? Bool) == true ? " (critical)" : ""): \(e["value"] ?? "")")
                    }
                }
            }
        }
    }

    struct Verify: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Validate a certificate chain: the chain as JSON on stdout, exit 0; an invalid one is a failure (chain.invalid, its typed failures), exit 1."
        )

        enum PolicyName: String, ExpressibleByArgument, CaseIterable {
            case rfc5280
            case appleSignedData = "apple-signed-data"
            case appleReceipt = "apple-receipt"
        }

        @Option(name: .customLong("root"), help: "A trusted root (repeatable; DER or PEM, bundles allowed).") var roots: [String] = []
        @Option(
            name: .customLong("intermediate"),
            help: "A candidate intermediate (repeatable; a file or PEM block that does not parse is skipped with a warning).")
        var intermediates: [String] = []
        @Option(help: "Validation time: RFC 3339 or unix seconds (default: now).") var at: String?
        @Option(help: "rfc5280, apple-signed-data or apple-receipt.") var policy: PolicyName = .rfc5280
        @Option(help: "Smallest RSA modulus accepted, in bits (1024 for legacy data).") var minimumRsaBits = 2048
        @Option(
            name: .customLong("crl"),
            help:
                "A CRL (DER or PEM; repeatable): every certificate of the path but the root is checked against the CRLs (RFC 5280 §6.3); one no CRL covers fails."
        )
        var crls: [String] = []
        @Option(
            name: .customLong("initial-policy"),
            help: "An acceptable certificate policy OID (repeatable; user-initial-policy-set, RFC 5280 §6.1.1 (c); default any).")
        var initialPolicies: [String] = []
        @Flag(help: "The path must be valid for an explicit policy (initial-explicit-policy).") var requireExplicitPolicy = false
        @Flag(help: "Policy mapping is not allowed (initial-policy-mapping-inhibit).") var inhibitPolicyMapping = false
        @Flag(help: "anyPolicy in a certificate matches nothing (initial-any-policy-inhibit).") var inhibitAnyPolicy = false
        @Option(name: .customLong("relax"), help: RelaxationName.help("the path"))
        var relaxations: [RelaxationName] = []
        @Flag(
            help:
                "Print every step (each signature checked, the basics and each policy on every candidate path, the outcome) with its clause to stderr."
        )
        var explain = false
        @Argument(help: "The leaf certificate.") var leaf: String

        /// The certificates of each --intermediate file; a file or PEM block that does not parse
        /// is skipped with a warning (a bag of candidates need not be clean).
        static func candidates(_ files: [String], warnings: inout [String]) throws -> [Certificate] {
            var found: [Certificate] = []
            for file in files {
                let bytes = try Input.read(file)
                guard let text = String(validating: bytes, as: UTF8.self), text.contains("-----BEGIN ") else {
                    do { found.append(try Certificate(derEncoded: bytes)) } catch { warnings.append("skipped candidate \(file): \(error)") }
                    continue
                }
                let blocks: [PEMDocument]
                do { blocks = try PEMDocument.parseAll(text) } catch {
                    warnings.append("skipped candidate \(file): \(error)")
                    continue
                }
                for (index, block) in blocks.enumerated() {
                    guard block.label == "CERTIFICATE" else {
                        warnings.append("skipped candidate \(file) block \(index + 1): \"\(block.label)\" is not a certificate")
                        continue
                    }
                    do { found.append(try Certificate(derEncoded: block.derBytes)) } catch {
                        warnings.append("skipped candidate \(file) block \(index + 1): \(error)")
                    }
                }
            }
            return found
        }

        func run() {
            reportingErrors {
                guard !roots.isEmpty else { throw CLIFailure(code: "usage", message: "at least one --root is needed") }
                guard minimumRsaBits >= 1024 else { throw CLIFailure(code: "usage", message: "--minimum-rsa-bits must be at least 1024") }
                let trusted = try roots.flatMap { try Input.certificates($0) }
                var warnings: [String] = []
                let candidates = try Verify.candidates(intermediates, warnings: &warnings)
                var initialSet: Set<ASN1ObjectIdentifier> = []
                for text in initialPolicies {
                    guard let oid = try? ASN1ObjectIdentifier(dotted: text) else {
                        throw CLIFailure(code: "usage", message: "--initial-policy \(text) is not a dotted OID")
                    }
                    initialSet.insert(oid)
                }
                let settings = PolicySettings(
                    initialPolicySet: initialSet, requireExplicitPolicy: requireExplicitPolicy,
                    inhibitPolicyMapping: inhibitPolicyMapping, inhibitAnyPolicy: inhibitAnyPolicy)
                let rfc5280 = RFC5280Policy(policySettings: settings, relaxations: Set(relaxations.map(\.relaxation)))
                let leafCertificates = try Input.certificates(leaf)
                guard let leafCertificate = leafCertificates.first else { throw CLIFailure(code: "usage", message: "no leaf certificate") }
                let time = try Input.time(at, option: "--at") ?? Int64(Date().timeIntervalSince1970)
                var policies: [any CertificatePolicy] =
                    switch policy {
                    case .rfc5280: [rfc5280]
                    case .appleSignedData: [rfc5280, MarkerExtensionPolicy.appleSignedData]
                    case .appleReceipt: [rfc5280, MarkerExtensionPolicy.appleReceipt]
                    }
                // --crl: revocation of every certificate but the trust anchor, from these CRLs.
                if !crls.isEmpty {
                    let revocation = CRLRevocationPolicy(
                        crls: try crls.flatMap { try CRLCommand.load($0) }, candidateCertificates: candidates + trusted,
                        options: .init(minimumRSABits: minimumRsaBits),
                        signerPolicies: [RFC5280Policy(relaxations: rfc5280.relaxations)])
                    policies.append(revocation)
                }
                let verifier = CertificateVerifier(trustedRoots: trusted, policies: policies, minimumRSABits: minimumRsaBits)
                // Extra certificates in the leaf's file (a PEM bundle) are candidates too.
                let trace = explain ? VerificationTrace() : nil
                let validation = verifier.validate(
                    leaf: leafCertificate, intermediates: Array(leafCertificates.dropFirst()) + candidates, at: time, trace: trace)
                Output.printTrace(trace, verdict: validation.chain == nil ? "INVALID" : "VALID")
                var output: [String: Any] = ["policy": policy.rawValue, "time": Time.rfc3339(time)]
                if !warnings.isEmpty { output["warnings"] = warnings }
                switch validation.result {
                case .valid(let chain):
                    output["valid"] = true
                    output["chain"] = chain.map(\.subject.rfc4514String)
                    if let policies = validation.validPolicies {
                        // RFC 5280 §6.1.6 / PKITS: the policies the path is good for, in the trust anchor's domain.
                        output["validPolicies"] =
                            [
                                "userConstrained": policies.userConstrained.map(\.dotted).sorted(),
                                "authoritiesConstrained": policies.authoritiesConstrained.map(\.dotted).sorted(),
                                "explicitPolicyRequired": policies.explicitPolicyRequired,
                            ] as [String: Any]
                    }
                    Output.printJSON(output)
                case .invalid(let failures):
                    // Each failure names the rule it breaks ("RFC 5280 §6.1.3 (b)") beside its reason.
                    throw CLIFailure(
                        code: "chain.invalid",
                        message: "the chain does not validate under the \(policy.rawValue) policy at \(Time.rfc3339(time))"
                            + warnings.map { "; \($0)" }.joined(),
                        failures: failures)
                }
            }
        }
    }
}

/// The `--relax` names of ``RFC5280Policy/Relaxation`` — one definition for `sigil x509 verify`,
/// `sigil verify` and `sigil receipt verify`, with one help text.
enum RelaxationName: String, ExpressibleByArgument, CaseIterable {
    case missingKeyIdentifiers = "missing-key-identifiers"
    case noncriticalBasicConstraints = "noncritical-basic-constraints"
    case noncriticalPolicyConstraints = "noncritical-policy-constraints"

    /// The `--relax` help: what it relaxes on `subject`, and `note` when given (the names are
    /// listed by ArgumentParser, as the option's values).
    static func help(_ subject: String, note: String? = nil) -> ArgumentHelp {
        ArgumentHelp(
            "An RFC 5280 profile rule not enforced on \(subject), for data known to break it (repeatable). Default: none"
                + (note.map { "; \($0)" } ?? "") + ".")
    }

    /// The library's relaxation of this name.
    var relaxation: RFC5280Policy.Relaxation {
        switch self {
        case .missingKeyIdentifiers: .missingKeyIdentifiers
        case .noncriticalBasicConstraints: .nonCriticalBasicConstraints
        case .noncriticalPolicyConstraints: .nonCriticalPolicyConstraints
        }
    }
}
