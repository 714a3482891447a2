import Foundation
import SigilASN1
import SigilTestSupport
import XCTest

@testable import SigilX509

/// Name constraints and certificate-policy processing against the `openssl verify` CLI, on
/// chains openssl itself issues from a seeded random description: root → CA → (CA →) leaf, with
/// random permitted/excluded subtrees of every form Sigil checks (dNSName, rfc822Name,
/// uniformResourceIdentifier, iPAddress v4 and v6, directoryName, and emailAddress in the
/// subject), and random certificatePolicies, policyMappings, policyConstraints and
/// inhibitAnyPolicy checked under each of openssl's policy options (`-policy`,
/// `-explicit_policy`, `-inhibit_map`, `-inhibit_any`, always with `-policy_check`).
/// The leaves of a batch go to one `openssl verify` run per option set.
final class OpenSSLPathAgreementTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("sigil-pathval-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    private func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    @discardableResult
    private func openssl(_ arguments: [String]) throws -> Subprocess.Result {
        let result = try Subprocess.run(try Subprocess.require("openssl"), arguments)
        XCTAssertEqual(result.status, 0, "openssl \(arguments.joined(separator: " ")): \(String(decoding: result.stderr, as: UTF8.self))")
        return result
    }

    /// One certificate to issue: subject, extension lines, and config sections (dirName bases).
    private struct Spec {
        var name: String
        var subject: String
        var extensions: [String]
        var sections: [String] = []
    }

    /// Issues `spec` with the shared key, signed by `issuer` (nil: self-signed).
    private func issue(_ spec: Spec, issuer: String?) throws -> Certificate {
        let config = path("\(spec.name).cnf")
        let text =
            "[req]\ndistinguished_name=dn\n[dn]\n[ext]\n" + spec.extensions.joined(separator: "\n") + "\n"
            + spec.sections.joined(separator: "\n") + "\n"
        try Data(text.utf8).write(to: URL(fileURLWithPath: config))
        var arguments = [
            "req", "-x509", "-new", "-key", path("key.pem"), "-subj", spec.subject, "-days", "3", "-config", config,
            "-extensions", "ext", "-out", path("\(spec.name).pem"),
        ]
        if let issuer { arguments += ["-CA", path("\(issuer).pem"), "-CAkey", path("key.pem")] }
        try openssl(arguments)
        return try XCTUnwrap(Certificate.load(Array(try Data(contentsOf: URL(fileURLWithPath: path("\(spec.name).pem"))))).first)
    }

    private let caBase = [
        "basicConstraints=critical,CA:TRUE", "keyUsage=critical,keyCertSign,cRLSign",
        "subjectKeyIdentifier=hash", "authorityKeyIdentifier=keyid",
    ]
    private let leafBase = [
        "basicConstraints=critical,CA:FALSE", "keyUsage=critical,digitalSignature",
        "subjectKeyIdentifier=hash", "authorityKeyIdentifier=keyid",
    ]

    // Vocabularies small enough that random names and subtrees often meet.
    private let dnsBases = ["example.com", "a.example.com", ".example.com", "example.org"]
    private let emailBases = ["example.com", ".example.com", "user@example.com", "example.org"]
    private let uriBases = ["example.com", ".example.com", "example.org"]
    private let ipBases = ["10.0.0.0/255.0.0.0", "10.1.0.0/255.255.0.0", "192.168.0.0/255.255.255.0", "2001:db8::/ffff:ffff::"]
    private let dirBases = [["O=Org A"], ["O=Org A", "OU=Unit B"], ["O=Org B"]]
    private let dnsNames = ["example.com", "a.example.com", "b.a.example.com", "example.org", "xexample.com"]
    private let emails = ["user@example.com", "user@a.example.com", "other@example.com", "user@example.org"]
    private let uris = ["https://example.com/x", "https://a.example.com/", "https://example.org:8443/p", "http://b.a.example.com"]
    private let ips = ["10.1.2.3", "10.2.0.1", "192.168.0.7", "2001:db8::1", "2001:db9::1"]
    private let subjects = ["/O=Org A/OU=Unit B", "/O=Org A/OU=Unit C", "/O=Org B", "/O=Org A"]

    private static let policies = ["1.2.3.1", "1.2.3.2", "1.2.3.3"]
    private static let any = "2.5.29.32.0"

    private func pick<T>(_ list: [T], _ rng: inout SeededGenerator) -> T { list[Int(rng.next() % UInt64(list.count))] }
    private func chance(_ percent: UInt64, _ rng: inout SeededGenerator) -> Bool { rng.next() % 100 < percent }

    /// A random nameConstraints line (and its dirName sections) for CA `name`.
    private func nameConstraints(_ name: String, _ rng: inout SeededGenerator) -> (String, [String]) {
        var parts: [String] = []
        var sections: [String] = []
        for k in 0..<(1 + Int(rng.next() % 4)) {
            let kind = chance(65, &rng) ? "permitted" : "excluded"
            switch rng.next() % 5 {
            case 0: parts.append("\(kind);DNS:\(pick(dnsBases, &rng))")
            case 1: parts.append("\(kind);email:\(pick(emailBases, &rng))")
            case 2: parts.append("\(kind);URI:\(pick(uriBases, &rng))")
            case 3: parts.append("\(kind);IP:\(pick(ipBases, &rng))")
            default:
                let section = "\(name)_dir\(k)"
                parts.append("\(kind);dirName:\(section)")
                sections.append("[\(section)]\n" + pick(dirBases, &rng).joined(separator: "\n"))
            }
        }
        return ("nameConstraints=critical," + parts.joined(separator: ","), sections)
    }

    private func leafNames(_ rng: inout SeededGenerator) -> [String] {
        var names: [String] = []
        for _ in 0..<Int(rng.next() % 4) {
            switch rng.next() % 4 {
            case 0: names.append("DNS:\(pick(dnsNames, &rng))")
            case 1: names.append("email:\(pick(emails, &rng))")
            case 2: names.append("URI:\(pick(uris, &rng))")
            default: names.append("IP:\(pick(ips, &rng))")
            }
        }
        return names.isEmpty ? [] : ["subjectAltName=" + names.joined(separator: ",")]
    }

    private func policyLines(ca: Bool, _ rng: inout SeededGenerator) -> [String] {
        var lines: [String] = []
        if chance(85, &rng) {
            let chosen = (OpenSSLPathAgreementTests.policies + [OpenSSLPathAgreementTests.any]).filter { _ in chance(45, &rng) }
            lines.append(
                "certificatePolicies=" + (chosen.isEmpty ? [pick(OpenSSLPathAgreementTests.policies, &rng)] : chosen).joined(separator: ",")
            )
        }
        guard ca else {
            if chance(10, &rng) { lines.append("policyConstraints=requireExplicitPolicy:0") }
            return lines
        }
        if chance(45, &rng) {
            var pairs: [String] = []
            for _ in 0..<(1 + Int(rng.next() % 3)) {
                let from = pick(OpenSSLPathAgreementTests.policies, &rng)
                let to = pick(OpenSSLPathAgreementTests.policies, &rng)
                if from != to && !pairs.contains("\(from):\(to)") { pairs.append("\(from):\(to)") }
            }
            if !pairs.isEmpty { lines.append("policyMappings=" + pairs.joined(separator: ",")) }
        }
        if chance(35, &rng) {
            var parts: [String] = []
            if chance(60, &rng) { parts.append("requireExplicitPolicy:\(rng.next() % 3)") }
            if parts.isEmpty || chance(50, &rng) { parts.append("inhibitPolicyMapping:\(rng.next() % 3)") }
            lines.append("policyConstraints=" + parts.joined(separator: ","))
        }
        if chance(25, &rng) { lines.append("inhibitAnyPolicy=\(rng.next() % 3)") }
        return lines
    }

    private struct Chain {
        let leafFile: String
        let leaf: Certificate
        let intermediates: [Certificate]
        let description: String
    }

    /// Runs `openssl verify` once on every leaf of `chains` with `options`; the leaf files it accepts.
    private func opensslAccepts(_ chains: [Chain], options: [String]) throws -> Set<String> {
        let bag = path("untrusted.pem")
        let result = try Subprocess.run(
            try Subprocess.require("openssl"),
            ["verify", "-policy_check", "-CAfile", path("root.pem"), "-untrusted", bag] + options + chains.map(\.leafFile))
        let out = result.stdoutString
        return Set(chains.map(\.leafFile).filter { out.contains("\($0): OK") })
    }

    /// Whether Sigil accepts `chain` under `settings`: the path is built (signatures checked)
    /// once with no policy, then ``RFC5280Policy`` decides, so the seven option sets cost one
    /// round of signature checks.
    private func sigilAccepts(_ chain: Chain, root: Certificate, settings: [PolicySettings]) throws -> [Bool] {
        let now = Int64(Date().timeIntervalSince1970)
        let built = CertificateVerifier(trustedRoots: [root], policies: []).verify(
            leaf: chain.leaf, intermediates: chain.intermediates, at: now)
        let path = try XCTUnwrap(built.chain, "\(chain.description): \(built.failures)")
        XCTAssertEqual(path, [chain.leaf] + chain.intermediates.reversed() + [root])
        // openssl writes policyConstraints non-critical (§4.2.1.11 says critical): named relaxation.
        return settings.map {
            RFC5280Policy(policySettings: $0, relaxations: [.nonCriticalPolicyConstraints]).evaluate(path, at: now).failures.isEmpty
        }
    }

    func testNameConstraintsAndPoliciesAgreeWithOpenSSL() throws {
        var rng = SeededGenerator(seed: 0x5167_0018)
        try openssl(["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", path("key.pem")])
        let root = try issue(Spec(name: "root", subject: "/CN=Agreement Root", extensions: caBase), issuer: nil)
        var nameChains: [Chain] = []
        var policyChains: [Chain] = []
        var untrusted = ""
        for index in 0..<48 {
            let namesOnly = index % 2 == 0
            var described: [String] = []
            var specs: [Spec] = []
            let depth = chance(50, &rng) ? 2 : 1
            for level in 0..<depth {
                let name = "c\(index)ca\(level)"
                var spec = Spec(name: name, subject: pick(subjects, &rng) + "/CN=CA \(index) \(level)", extensions: caBase)
                if namesOnly {
                    if level == 0 || chance(50, &rng) {
                        let (line, sections) = nameConstraints(name, &rng)
                        spec.extensions.append(line)
                        spec.sections = sections
                    }
                } else {
                    spec.extensions += policyLines(ca: true, &rng)
                }
                specs.append(spec)
            }
            var leafSpec = Spec(name: "c\(index)leaf", subject: pick(subjects, &rng) + "/CN=leaf \(index)", extensions: leafBase)
            if namesOnly {
                if chance(30, &rng) { leafSpec.subject += "/emailAddress=\(pick(emails, &rng))" }
                leafSpec.extensions += leafNames(&rng)
            } else {
                leafSpec.extensions += policyLines(ca: false, &rng)
            }
            specs.append(leafSpec)
            var issuer = "root"
            var issued: [Certificate] = []
            for spec in specs {
                issued.append(try issue(spec, issuer: issuer))
                issuer = spec.name
                described.append("\(spec.subject) " + (spec.extensions.dropFirst(4) + spec.sections).joined(separator: " "))
                if spec.name != leafSpec.name {
                    untrusted += try String(contentsOf: URL(fileURLWithPath: path("\(spec.name).pem")), encoding: .utf8)
                }
            }
            let chain = Chain(
                leafFile: path("\(leafSpec.name).pem"), leaf: issued.last!, intermediates: Array(issued.dropLast()),
                description: described.joined(separator: " → "))
            if namesOnly { nameChains.append(chain) } else { policyChains.append(chain) }
        }
        try Data(untrusted.utf8).write(to: URL(fileURLWithPath: path("untrusted.pem")))

        var disagreements: [String] = []
        // Name constraints: default settings.
        let nameAccepted = try opensslAccepts(nameChains, options: [])
        var nameOutcomes = (valid: 0, invalid: 0)
        for chain in nameChains {
            let ours = try sigilAccepts(chain, root: root, settings: [PolicySettings()])[0]
            let theirs = nameAccepted.contains(chain.leafFile)
            if ours { nameOutcomes.valid += 1 } else { nameOutcomes.invalid += 1 }
            if ours != theirs { disagreements.append("names: sigil \(ours), openssl \(theirs): \(chain.description)") }
        }
        // Policies: each option set of `openssl verify` and the same RFC 5280 §6.1.1 inputs.
        let p1: ASN1ObjectIdentifier = [1, 2, 3, 1]
        let p2: ASN1ObjectIdentifier = [1, 2, 3, 2]
        let p3: ASN1ObjectIdentifier = [1, 2, 3, 3]
        let optionSets: [([String], PolicySettings)] = [
            ([], PolicySettings()),
            (["-explicit_policy"], PolicySettings(requireExplicitPolicy: true)),
            (["-policy", "1.2.3.1"], PolicySettings(initialPolicySet: [p1])),
            (
                ["-policy", "1.2.3.1", "-policy", "1.2.3.3", "-explicit_policy"],
                PolicySettings(initialPolicySet: [p1, p3], requireExplicitPolicy: true)
            ),
            (["-inhibit_map", "-explicit_policy"], PolicySettings(requireExplicitPolicy: true, inhibitPolicyMapping: true)),
            (["-inhibit_any", "-explicit_policy"], PolicySettings(requireExplicitPolicy: true, inhibitAnyPolicy: true)),
            (
                ["-inhibit_map", "-inhibit_any", "-explicit_policy", "-policy", "1.2.3.2"],
                PolicySettings(initialPolicySet: [p2], requireExplicitPolicy: true, inhibitPolicyMapping: true, inhibitAnyPolicy: true)
            ),
        ]
        var policyOutcomes = (valid: 0, invalid: 0)
        let ourPolicyOutcomes = try policyChains.map { try sigilAccepts($0, root: root, settings: optionSets.map(\.1)) }
        for (set, (options, _)) in optionSets.enumerated() {
            // openssl's user-initial-policy-set is empty, not any-policy, when no -policy is given
            // (an explicit policy then never verifies); RFC 5280 §6.1.1 (c)'s default is passed explicitly.
            let anyPolicy = options.contains("-policy") ? [] : ["-policy", OpenSSLPathAgreementTests.any]
            let accepted = try opensslAccepts(policyChains, options: options + anyPolicy)
            for (index, chain) in policyChains.enumerated() {
                let ours = ourPolicyOutcomes[index][set]
                let theirs = accepted.contains(chain.leafFile)
                if ours { policyOutcomes.valid += 1 } else { policyOutcomes.invalid += 1 }
                if ours != theirs {
                    disagreements.append(
                        "policies \(options.joined(separator: " ")): sigil \(ours), openssl \(theirs): \(chain.description)")
                }
            }
        }
        XCTAssertEqual(disagreements, [], disagreements.joined(separator: "\n"))
        print("openssl agreement: names \(nameOutcomes), policies \(policyOutcomes)")
        // Not vacuous: both outcomes occur often in each half.
        XCTAssertGreaterThan(nameOutcomes.valid, 4, "\(nameOutcomes)")
        XCTAssertGreaterThan(nameOutcomes.invalid, 4, "\(nameOutcomes)")
        XCTAssertGreaterThan(policyOutcomes.valid, 20, "\(policyOutcomes)")
        XCTAssertGreaterThan(policyOutcomes.invalid, 20, "\(policyOutcomes)")
    }
}
