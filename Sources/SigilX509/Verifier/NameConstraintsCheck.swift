import SigilASN1
import SigilBase

/// Name constraints along a path (RFC 5280 §6.1.3 (b)–(c), §6.1.4 (g), §4.2.1.10), checked
/// variable time on public certificates.
///
/// State: the permitted subtrees are kept as one list per CA that set any (a name of a form must
/// lie in some subtree of that form of *every* such list — the intersection of §6.1.4 (g)(1)
/// without computing it), the excluded subtrees as one union (§6.1.4 (g)(2)). A form a CA's list
/// does not mention is not restricted by that CA.
///
/// Names checked for certificate i: the subject DN as a directoryName (when not empty), every
/// subjectAltName, and every emailAddress attribute of the subject DN as an rfc822Name (§4.2.1.10
/// requires it when there is no subjectAltName; like OpenSSL, Sigil checks it always). A
/// self-issued certificate is checked only when it is the leaf (§6.1.3 (b)). Forms Sigil cannot
/// match (otherName, x400Address, ediPartyName, registeredID, and constraints whose encoding has
/// the wrong size) fail the certificate that carries such a name when a critical extension
/// constrains that form, and are ignored otherwise (§4.2.1.10).
///
/// Work is bounded: every (name, subtree) comparison counts as one step; past `limit` the check
/// ends with ``ValidationFailure/nameConstraintWorkExceeded(limit:)``.
struct NameConstraintsCheck {
    /// The kinds of GeneralName, by CHOICE tag.
    enum Form: Int, Hashable {
        case otherName = 0
        case rfc822Name, dnsName, x400Address, directoryName, ediPartyName, uniformResourceIdentifier, ipAddress, registeredID

        init(_ name: GeneralName) {
            switch name {
            case .otherName: self = .otherName
            case .rfc822Name: self = .rfc822Name
            case .dnsName: self = .dnsName
            case .x400Address: self = .x400Address
            case .directoryName: self = .directoryName
            case .ediPartyName: self = .ediPartyName
            case .uniformResourceIdentifier: self = .uniformResourceIdentifier
            case .ipAddress: self = .ipAddress
            case .registeredID: self = .registeredID
            }
        }

        var checkable: Bool { [.rfc822Name, .dnsName, .directoryName, .uniformResourceIdentifier, .ipAddress].contains(self) }

        var label: String {
            switch self {
            case .otherName: "otherName"
            case .rfc822Name: "rfc822Name"
            case .dnsName: "dNSName"
            case .x400Address: "x400Address"
            case .directoryName: "directoryName"
            case .ediPartyName: "ediPartyName"
            case .uniformResourceIdentifier: "uniformResourceIdentifier"
            case .ipAddress: "iPAddress"
            case .registeredID: "registeredID"
            }
        }
    }

    /// emailAddress (PKCS #9, RFC 5280 §4.1.2.6).
    static let emailAddress: ASN1ObjectIdentifier = [1, 2, 840, 113549, 1, 9, 1]

    let limit: Int
    /// One entry per CA with permittedSubtrees: its bases grouped by form.
    private(set) var permitted: [BasesByForm] = []
    private(set) var excluded = BasesByForm()
    /// Forms a critical extension constrains that Sigil cannot match (or whose constraint is
    /// malformed), one bit per form's tag.
    private(set) var uncheckable: UInt16 = 0

    /// Subtree bases grouped by form, indexed by the form's tag; a form without bases reads nil.
    struct BasesByForm {
        private var lists: [[GeneralName]] = Array(repeating: [], count: 9)
        var isEmpty: Bool { lists.allSatisfy { $0.isEmpty } }
        subscript(form: Form) -> [GeneralName]? { lists[form.rawValue].isEmpty ? nil : lists[form.rawValue] }
        mutating func append(_ base: GeneralName, to form: Form) { lists[form.rawValue].append(base) }
    }
    /// (name, subtree) comparisons made so far.
    private(set) var steps = 0

    init(limit: Int) { self.limit = limit }

    var isEmpty: Bool { permitted.isEmpty && excluded.isEmpty && uncheckable == 0 }

    /// §6.1.4 (g): adds a CA's constraints to the state.
    mutating func add(_ constraints: NameConstraints, critical: Bool) {
        var permittedByForm = BasesByForm()
        for subtree in constraints.permitted {
            let form = Form(subtree.base)
            if form.checkable && NameConstraintsCheck.wellFormed(subtree.base) {
                permittedByForm.append(subtree.base, to: form)
            } else if critical {
                uncheckable |= 1 << form.rawValue
            }
        }
        if !permittedByForm.isEmpty { permitted.append(permittedByForm) }
        for subtree in constraints.excluded {
            let form = Form(subtree.base)
            if form.checkable && NameConstraintsCheck.wellFormed(subtree.base) {
                excluded.append(subtree.base, to: form)
            } else if critical {
                uncheckable |= 1 << form.rawValue
            }
        }
    }

    /// The names of `certificate` name constraints apply to.
    static func names(of certificate: Certificate) -> [GeneralName] {
        var names: [GeneralName] = []
        if !certificate.subject.rdns.isEmpty { names.append(.directoryName(certificate.subject)) }
        names += certificate.subjectAlternativeNames
        names += certificate.subject.values(of: emailAddress).map { .rfc822Name($0) }
        return names
    }

    /// §6.1.3 (b)–(c) for `certificate`, at `position` in the path (0 = leaf): its failures;
    /// stops at the work bound.
    mutating func check(_ certificate: Certificate, position: Int) -> [ValidationFailure] {
        guard !isEmpty else { return [] }
        var failures: [ValidationFailure] = []
        var named: PathCertificate { PathCertificate(certificate, position: position) }
        for name in NameConstraintsCheck.names(of: certificate) {
            let form = Form(name)
            guard form.checkable else {
                if uncheckable & 1 << form.rawValue != 0 {
                    failures.append(.unsupportedNameConstraint(certificate: named, form: form.label))
                }
                continue
            }
            if uncheckable & 1 << form.rawValue != 0 {
                // A critical constraint of this form could not be read: the name cannot be cleared.
                failures.append(.unsupportedNameConstraint(certificate: named, form: form.label))
                continue
            }
            if !NameConstraintsCheck.isWellFormedName(name), excluded[form] != nil || permitted.contains(where: { $0[form] != nil }) {
                // A malformed name (an address with a mask, a DNS name with an empty label, a
                // mailbox without exactly one "@"; §4.2.1.6) can be cleared by no subtree, even
                // one whose suffix it carries.
                failures.append(.nameNotPermitted(certificate: named, name: name.description))
                continue
            }
            for list in permitted {
                guard let bases = list[form] else { continue }
                guard spend(bases.count) else { return failures + [.nameConstraintWorkExceeded(limit: limit)] }
                if !bases.contains(where: { NameConstraintsCheck.name(name, isWithin: $0) }) {
                    failures.append(.nameNotPermitted(certificate: named, name: name.description))
                    break
                }
            }
            if let bases = excluded[form] {
                guard spend(bases.count) else { return failures + [.nameConstraintWorkExceeded(limit: limit)] }
                if bases.contains(where: { NameConstraintsCheck.name(name, isWithin: $0) }) {
                    failures.append(.nameExcluded(certificate: named, name: name.description))
                }
            }
        }
        return failures
    }

    private mutating func spend(_ count: Int) -> Bool {
        guard count <= limit - steps else {
            steps = limit
            return false
        }
        steps += count
        return true
    }

    /// Whether a subjectAltName (or subject emailAddress) has the shape of its form: an
    /// iPAddress of 4 or 16 octets, a dNSName of non-empty labels, an rfc822Name with exactly one
    /// "@" between a non-empty local part and a host of non-empty labels. Other forms pass.
    /// (These names are IA5String: every test here is on their bytes.)
    static func isWellFormedName(_ name: GeneralName) -> Bool {
        switch name {
        case .ipAddress(let octets): return octets.count == 4 || octets.count == 16
        case .dnsName(let text): return hasNonEmptyLabels(Array(text.utf8)[...])
        case .rfc822Name(let text):
            let bytes = Array(text.utf8)
            guard let at = bytes.firstIndex(of: atSign), !bytes[(at + 1)...].contains(atSign) else { return false }
            return at > 0 && hasNonEmptyLabels(bytes[(at + 1)...])
        default: return true
        }
    }

    /// Whether `bytes` are one or more dot-separated labels, none empty.
    static func hasNonEmptyLabels(_ bytes: ArraySlice<UInt8>) -> Bool {
        guard let first = bytes.first, let last = bytes.last, first != dot, last != dot else { return false }
        return !zip(bytes, bytes.dropFirst()).contains { $0 == dot && $1 == dot }
    }

    private static let dot = UInt8(ascii: "."), atSign = UInt8(ascii: "@")

    /// Whether a constraint's base is a valid subtree of its form for a trust anchor's constraints
    /// (RFC 5937 with §4.2.1.10): an iPAddress of address and contiguous mask, a dNSName of
    /// non-empty labels without a wildcard (a leading "." is taken as the subdomains, as Sigil's
    /// matching does), an rfc822Name with at most one "@".
    static func isValidSubtree(_ base: GeneralName) -> Bool {
        switch base {
        case .ipAddress: return wellFormed(base)
        case .dnsName(let text):
            let bytes = Array(text.utf8)
            if bytes.isEmpty { return true }
            return !bytes.contains(UInt8(ascii: "*")) && hasNonEmptyLabels(bytes.first == dot ? bytes.dropFirst() : bytes[...])
        case .rfc822Name(let text):
            let bytes = Array(text.utf8)
            if let at = bytes.firstIndex(of: atSign) {
                guard !bytes[(at + 1)...].contains(atSign) else { return false }
                return at > 0 && hasNonEmptyLabels(bytes[(at + 1)...])
            }
            return hasNonEmptyLabels(bytes.first == dot ? bytes.dropFirst() : bytes[...])
        default: return true
        }
    }

    /// Whether a constraint's base has the shape its form needs (iPAddress: address and mask,
    /// 8 or 32 octets, with a contiguous mask).
    static func wellFormed(_ base: GeneralName) -> Bool {
        guard case .ipAddress(let bytes) = base else { return true }
        guard bytes.count == 8 || bytes.count == 32 else { return false }
        let mask = bytes[(bytes.count / 2)...]
        var seenZero = false
        for byte in mask {
            for bit in (0..<8).reversed() {
                let set = byte & (1 << bit) != 0
                if set && seenZero { return false }
                if !set { seenZero = true }
            }
        }
        return true
    }

    /// Whether `name` lies in the subtree `base` (same form; RFC 5280 §4.2.1.10 matching rules).
    static func name(_ name: GeneralName, isWithin base: GeneralName) -> Bool {
        switch (name, base) {
        case (.directoryName(let n), .directoryName(let b)): return n.isWithin(b)
        case (.dnsName(let n), .dnsName(let b)): return dnsName(n, isWithin: b)
        case (.rfc822Name(let n), .rfc822Name(let b)): return mailbox(n, isWithin: b)
        case (.uniformResourceIdentifier(let n), .uniformResourceIdentifier(let b)):
            guard let uriHost = NameConstraintsCheck.uriHost(n) else { return false }
            return NameConstraintsCheck.host(uriHost, isWithin: b)
        case (.ipAddress(let n), .ipAddress(let b)):
            guard b.count == 2 * n.count else { return false }
            let half = n.count
            for k in 0..<half where n[k] & b[half + k] != b[k] & b[half + k] { return false }
            return true
        default: return false
        }
    }

    /// dNSName: the name is the base or ends with "." + base, case-insensitively; an empty base
    /// contains every name; a base written with a leading "." contains its subdomains only.
    static func dnsName(_ name: String, isWithin base: String) -> Bool {
        let name = name.asciiLowercased
        let base = base.asciiLowercased
        if base.isEmpty { return true }
        if base.utf8HasPrefix(".") { return name.utf8HasSuffix(base) }
        return name.utf8Equals(base) || name.utf8HasSuffix("." + base)
    }

    /// rfc822Name: a base with "@" is one mailbox (local part exact, host case-insensitive); a base
    /// starting with "." is every mailbox on a host under that domain; otherwise every mailbox on
    /// that host. A name without "@" lies in no subtree.
    static func mailbox(_ name: String, isWithin base: String) -> Bool {
        let name = Array(name.utf8)
        guard let at = name.lastIndex(of: atSign) else { return false }
        let host = String(decoding: name[(at + 1)...], as: UTF8.self).asciiLowercased
        let base = Array(base.utf8)
        if let baseAt = base.lastIndex(of: atSign) {
            return name[..<at].elementsEqual(base[..<baseAt])
                && host.utf8Equals(String(decoding: base[(baseAt + 1)...], as: UTF8.self).asciiLowercased)
        }
        let domain = String(decoding: base, as: UTF8.self).asciiLowercased
        if domain.utf8HasPrefix(".") { return host.utf8HasSuffix(domain) }
        return host.utf8Equals(domain)
    }

    /// The host of a URI's authority (RFC 3986 §3.2.2), lowercased, without user info or port;
    /// nil when the URI has no authority.
    static func uriHost(_ uri: String) -> String? {
        let bytes = Array(uri.utf8)
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")) else { return nil }
        let rest = bytes[(colon + 1)...]
        guard rest.starts(with: [UInt8(ascii: "/"), UInt8(ascii: "/")]) else { return nil }
        var authority = rest.dropFirst(2).prefix { $0 != UInt8(ascii: "/") && $0 != UInt8(ascii: "?") && $0 != UInt8(ascii: "#") }
        if let at = authority.lastIndex(of: atSign) { authority = authority[(at + 1)...] }
        if authority.first == UInt8(ascii: "[") {
            guard let close = authority.firstIndex(of: UInt8(ascii: "]")) else { return nil }
            return String(decoding: authority[...close], as: UTF8.self).asciiLowercased
        }
        if let port = authority.firstIndex(of: UInt8(ascii: ":")) { authority = authority[..<port] }
        return authority.isEmpty ? nil : String(decoding: authority, as: UTF8.self).asciiLowercased
    }

    /// A URI's host against a uniformResourceIdentifier base: a base starting with "." contains
    /// the hosts under that domain, otherwise exactly that host (§4.2.1.10).
    static func host(_ host: String, isWithin base: String) -> Bool {
        let base = base.asciiLowercased
        if base.utf8HasPrefix(".") { return host.utf8HasSuffix(base) }
        return host.utf8Equals(base)
    }
}
