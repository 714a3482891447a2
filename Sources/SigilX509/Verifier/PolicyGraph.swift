import SigilASN1

/// The certificate-policy inputs of path validation (RFC 5280 §6.1.1 (c), (e), (f), (g)).
/// The default is PKITS §3's: any policy acceptable, nothing required or inhibited.
public struct PolicySettings: Hashable, Sendable {
    /// user-initial-policy-set: the policies the relying party accepts; anyPolicy accepts any.
    public var initialPolicySet: Set<ASN1ObjectIdentifier>
    /// initial-explicit-policy: the path must be valid for at least one policy of the set.
    public var requireExplicitPolicy: Bool
    /// initial-policy-mapping-inhibit: policy mapping is not permitted in the path.
    public var inhibitPolicyMapping: Bool
    /// initial-any-policy-inhibit: anyPolicy in a certificate is not taken as a match.
    public var inhibitAnyPolicy: Bool

    /// Policy inputs; an empty `initialPolicySet` means any policy, as does one holding anyPolicy.
    public init(
        initialPolicySet: Set<ASN1ObjectIdentifier> = [X509OIDs.anyPolicy], requireExplicitPolicy: Bool = false,
        inhibitPolicyMapping: Bool = false, inhibitAnyPolicy: Bool = false
    ) {
        self.initialPolicySet = initialPolicySet.isEmpty ? [X509OIDs.anyPolicy] : initialPolicySet
        self.requireExplicitPolicy = requireExplicitPolicy
        self.inhibitPolicyMapping = inhibitPolicyMapping
        self.inhibitAnyPolicy = inhibitAnyPolicy
    }

    /// Whether the user-initial-policy-set is any-policy.
    public var acceptsAnyPolicy: Bool { initialPolicySet.contains(X509OIDs.anyPolicy) }
}

/// The certificate policies a validated path is good for (RFC 5280 §6.1.6, named as in X.509 and
/// PKITS), each in the trust anchor's policy domain (before any mapping).
public struct ValidPolicySet: Hashable, Sendable, CustomStringConvertible {
    /// authorities-constrained-policy-set: every policy the CAs of the path allow; holds anyPolicy
    /// when every certificate asserted anyPolicy (the path is then good for any policy).
    public let authoritiesConstrained: Set<ASN1ObjectIdentifier>
    /// user-constrained-policy-set: the authorities-constrained set intersected with the
    /// user-initial-policy-set (any-policy in that set keeps the whole authorities-constrained set).
    public let userConstrained: Set<ASN1ObjectIdentifier>
    /// Whether the path had to be valid for an explicit policy (explicit_policy reached 0).
    public let explicitPolicyRequired: Bool

    /// A policy set as path validation outputs it.
    public init(authoritiesConstrained: Set<ASN1ObjectIdentifier>, userConstrained: Set<ASN1ObjectIdentifier>, explicitPolicyRequired: Bool)
    {
        self.authoritiesConstrained = authoritiesConstrained
        self.userConstrained = userConstrained
        self.explicitPolicyRequired = explicitPolicyRequired
    }

    /// The set, for people.
    public var description: String {
        "user-constrained {\(userConstrained.map { $0.dotted }.sorted().joined(separator: ", "))}, "
            + "authorities-constrained {\(authoritiesConstrained.map { $0.dotted }.sorted().joined(separator: ", "))}"
    }
}

/// Certificate policy processing (RFC 5280 §6.1.2 (a), (d), (e), (i); §6.1.3 (d)–(f); §6.1.4
/// (a), (b), (h)–(j); §6.1.5 (a), (b), (g)) computed on RFC 9618's policy graph instead of the
/// valid_policy_tree: one node per (depth, valid_policy) with a set of parents, so a path of n
/// certificates with k policies each holds at most n·k nodes instead of a tree that can grow
/// exponentially. Variable time (public certificates).
///
/// Work is bounded: every node, edge and expected_policy_set entry created counts one step; past
/// `limit` processing ends with ``ValidationFailure/policyGraphLimitExceeded(limit:)``.
struct PolicyGraph {
    struct Node {
        let policy: ASN1ObjectIdentifier
        var expected: Set<ASN1ObjectIdentifier>
        /// Indices into the level above (depth − 1).
        var parents: [Int]
        var alive = true
    }

    struct Level {
        var nodes: [Node] = []
        var index: [ASN1ObjectIdentifier: Int] = [:]

        func alive(_ policy: ASN1ObjectIdentifier) -> Int? {
            guard let i = index[policy], nodes[i].alive else { return nil }
            return i
        }
    }

    struct Outcome {
        var failures: [ValidationFailure] = []
        var validPolicies: ValidPolicySet?
        var steps = 0
    }

    let settings: PolicySettings
    let limit: Int
    private var levels: [Level] = []
    /// False once the graph is NULL (RFC 5280's valid_policy_tree = NULL).
    private var present = true
    private(set) var steps = 0

    init(settings: PolicySettings, limit: Int) {
        self.settings = settings
        self.limit = limit
    }

    private mutating func spend(_ count: Int) -> Bool {
        guard count <= limit - steps else {
            steps = limit
            return false
        }
        steps += count
        return true
    }

    private static let any = X509OIDs.anyPolicy

    /// Runs policy processing over `path`, ordered as RFC 5280 §6.1 numbers it: certificate 1 is
    /// issued by the trust anchor, certificate n is the leaf.
    static func process(_ path: [Certificate], settings: PolicySettings, limit: Int) -> Outcome {
        var graph = PolicyGraph(settings: settings, limit: limit)
        var outcome = graph.run(path)
        outcome.steps = graph.steps
        return outcome
    }

    /// The extensions whose presence makes the counters of §6.1.4 (h)–(j) matter.
    private static let counterExtensions = [X509OIDs.policyMappings, X509OIDs.policyConstraints, X509OIDs.inhibitAnyPolicy]

    private mutating func run(_ path: [Certificate]) -> Outcome {
        let n = path.count
        var outcome = Outcome()
        // With the default inputs and no certificate carrying policyMappings, policyConstraints or
        // inhibitAnyPolicy, the counters cannot reach 0 (each starts at n + 1 and loses at most
        // n − 1 in the loop and 1 in the wrap-up), so they decide nothing: self-issued tests,
        // name matching per certificate, are skipped.
        let countersMatter =
            settings.requireExplicitPolicy || settings.inhibitPolicyMapping || settings.inhibitAnyPolicy
            || path.contains { certificate in certificate.extensions.contains { PolicyGraph.counterExtensions.contains($0.oid) } }
        // Certificate 1 without certificatePolicies makes the graph NULL for good (§6.1.3 (e));
        // with counters that decide nothing, the path is valid for no particular policy.
        if !countersMatter, let first = path.first, !first.extensions.contains(where: { $0.oid == X509OIDs.certificatePolicies }) {
            outcome.validPolicies = ValidPolicySet(authoritiesConstrained: [], userConstrained: [], explicitPolicyRequired: false)
            return outcome
        }
        // §6.1.2 (a), (d), (e), (f).
        var root = Level()
        root.nodes = [Node(policy: PolicyGraph.any, expected: [PolicyGraph.any], parents: [])]
        root.index[PolicyGraph.any] = 0
        levels = [root]
        var explicitPolicy = settings.requireExplicitPolicy ? 0 : n + 1
        var inhibitAnyPolicy = settings.inhibitAnyPolicy ? 0 : n + 1
        var policyMapping = settings.inhibitPolicyMapping ? 0 : n + 1
        for (offset, certificate) in path.enumerated() {
            let i = offset + 1
            let selfIssued = countersMatter && certificate.isSelfIssued
            var named: PathCertificate { PathCertificate(certificate, position: n - i) }
            // §6.1.3 (d)–(e).
            if present, certificate.extension(X509OIDs.certificatePolicies) != nil {
                guard addLevel(for: certificate, depth: i, anyAllowed: inhibitAnyPolicy > 0 || (i < n && selfIssued)) else {
                    outcome.failures.append(.policyGraphLimitExceeded(limit: limit))
                    return outcome
                }
            } else {
                present = false
            }
            // §6.1.3 (f).
            if explicitPolicy == 0 && !present {
                outcome.failures.append(.noValidPolicy(certificate: named, clause: "§6.1.3 (f)"))
                return outcome
            }
            guard i < n else { break }
            // §6.1.4 (a)–(b).
            if let mappings = certificate.policyMappings {
                if mappings.mappings.contains(where: {
                    $0.issuerDomainPolicy == PolicyGraph.any || $0.subjectDomainPolicy == PolicyGraph.any
                }) {
                    outcome.failures.append(.policyMappingOfAnyPolicy(certificate: named))
                    return outcome
                }
                if present {
                    guard applyMappings(mappings, depth: i, mappingAllowed: policyMapping > 0) else {
                        outcome.failures.append(.policyGraphLimitExceeded(limit: limit))
                        return outcome
                    }
                }
            }
            // §6.1.4 (h)–(j).
            if countersMatter && !selfIssued {
                if explicitPolicy > 0 { explicitPolicy -= 1 }
                if policyMapping > 0 { policyMapping -= 1 }
                if inhibitAnyPolicy > 0 { inhibitAnyPolicy -= 1 }
            }
            if let constraints = certificate.policyConstraints {
                if let r = constraints.requireExplicitPolicy, r < explicitPolicy { explicitPolicy = r }
                if let m = constraints.inhibitPolicyMapping, m < policyMapping { policyMapping = m }
            }
            if let skip = certificate.inhibitAnyPolicy?.skipCerts, skip < inhibitAnyPolicy { inhibitAnyPolicy = skip }
        }
        // §6.1.5 (a)–(b).
        if explicitPolicy > 0 { explicitPolicy -= 1 }
        if let leaf = path.last, leaf.policyConstraints?.requireExplicitPolicy == 0 { explicitPolicy = 0 }
        // §6.1.5 (g), in graph form (RFC 9618): every live node reaches depth n after pruning.
        var authorities: Set<ASN1ObjectIdentifier> = []
        if present, n > 0, let leafLevel = levels.last {
            if leafLevel.alive(PolicyGraph.any) != nil { authorities.insert(PolicyGraph.any) }
            for depth in 1..<levels.count {
                let parentLevel = levels[depth - 1]
                for node in levels[depth].nodes where node.alive && node.policy != PolicyGraph.any {
                    // In the valid_policy_node_set when a parent is anyPolicy.
                    if node.parents.contains(where: { parentLevel.nodes[$0].alive && parentLevel.nodes[$0].policy == PolicyGraph.any }) {
                        authorities.insert(node.policy)
                    }
                }
            }
        } else if present {
            authorities = [PolicyGraph.any]
        }
        let user: Set<ASN1ObjectIdentifier>
        if settings.acceptsAnyPolicy {
            user = authorities
        } else if authorities.contains(PolicyGraph.any) {
            user = settings.initialPolicySet
        } else {
            user = authorities.intersection(settings.initialPolicySet)
        }
        if explicitPolicy == 0 && user.isEmpty {
            let leaf = path.last.map { PathCertificate($0, position: 0) } ?? PathCertificate(position: 0, subject: "the trust anchor")
            outcome.failures.append(.noValidPolicy(certificate: leaf, clause: "§6.1.5 (g)"))
            return outcome
        }
        outcome.validPolicies = ValidPolicySet(
            authoritiesConstrained: authorities, userConstrained: user,
            explicitPolicyRequired: explicitPolicy == 0)
        return outcome
    }

    /// §6.1.3 (d)(1)–(3) for certificate i: a new level at `depth`, then pruning. False at the bound.
    private mutating func addLevel(for certificate: Certificate, depth: Int, anyAllowed: Bool) -> Bool {
        let above = levels[depth - 1]
        // expected policy → the live nodes above that expect it.
        var expecting: [ASN1ObjectIdentifier: [Int]] = [:]
        for (k, node) in above.nodes.enumerated() where node.alive {
            guard spend(node.expected.count) else { return false }
            for p in node.expected { expecting[p, default: []].append(k) }
        }
        var level = Level()
        var assertsAny = false
        for information in certificate.certificatePolicies {
            let p = information.identifier
            if p == PolicyGraph.any {
                assertsAny = true
                continue
            }
            // (d)(1)(i), else (d)(1)(ii).
            var parents = expecting[p] ?? []
            if parents.isEmpty, let anyNode = above.alive(PolicyGraph.any) { parents = [anyNode] }
            guard !parents.isEmpty else { continue }
            guard spend(1 + parents.count) else { return false }
            level.index[p] = level.nodes.count
            level.nodes.append(Node(policy: p, expected: [p], parents: parents))
        }
        // (d)(2): anyPolicy matches every expected policy not yet at this depth.
        if assertsAny && anyAllowed {
            for (p, parents) in expecting.sorted(by: { $0.key.dotted < $1.key.dotted }) where level.index[p] == nil {
                guard spend(1 + parents.count) else { return false }
                level.index[p] = level.nodes.count
                level.nodes.append(Node(policy: p, expected: [p], parents: parents))
            }
        }
        levels.append(level)
        prune(from: depth - 1)
        return true
    }

    /// §6.1.4 (b) for certificate i (`depth`). False at the bound.
    private mutating func applyMappings(_ mappings: PolicyMappings, depth: Int, mappingAllowed: Bool) -> Bool {
        var subjects: [ASN1ObjectIdentifier: Set<ASN1ObjectIdentifier>] = [:]
        var order: [ASN1ObjectIdentifier] = []
        for mapping in mappings.mappings {
            if subjects[mapping.issuerDomainPolicy] == nil { order.append(mapping.issuerDomainPolicy) }
            subjects[mapping.issuerDomainPolicy, default: []].insert(mapping.subjectDomainPolicy)
        }
        if mappingAllowed {
            // (b)(1).
            for p in order {
                guard let mapped = subjects[p] else { continue }
                if let k = levels[depth].alive(p) {
                    guard spend(mapped.count) else { return false }
                    levels[depth].nodes[k].expected = mapped
                } else if let anyNode = levels[depth].alive(PolicyGraph.any) {
                    let parents = levels[depth].nodes[anyNode].parents
                    guard spend(1 + parents.count + mapped.count) else { return false }
                    levels[depth].index[p] = levels[depth].nodes.count
                    levels[depth].nodes.append(Node(policy: p, expected: mapped, parents: parents))
                }
            }
        } else {
            // (b)(2): mapped policies are deleted, then the graph pruned.
            for p in order {
                if let k = levels[depth].alive(p) { levels[depth].nodes[k].alive = false }
            }
            if !levels[depth].nodes.contains(where: { $0.alive }) {
                present = false
                return true
            }
            prune(from: depth - 1)
        }
        return true
    }

    /// Deletes nodes at `depth` and above (towards the root) that have no live child; the graph
    /// becomes NULL when the root goes.
    private mutating func prune(from depth: Int) {
        var d = depth
        while d >= 0 {
            var hasChild = [Bool](repeating: false, count: levels[d].nodes.count)
            for node in levels[d + 1].nodes where node.alive {
                for parent in node.parents { hasChild[parent] = true }
            }
            var changed = false
            for k in levels[d].nodes.indices where levels[d].nodes[k].alive && !hasChild[k] {
                levels[d].nodes[k].alive = false
                changed = true
            }
            if !changed { break }
            d -= 1
        }
        if !levels[0].nodes[0].alive { present = false }
    }
}
