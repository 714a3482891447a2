import SigilBase

/// A module error that can carry the certificate verifier's typed failures: the one shape of the
/// errors of every verifier whose job ends in a certificate chain (App Store signed data, CMS and
/// receipts, App Attest). When the chain did not validate, ``failures`` holds each
/// ``ValidationFailure`` with the certificate it concerns and the rule it breaks, so a program can
/// tell an expired leaf from a missing marker OID without reading English; otherwise it is empty.
public protocol ChainFailureError: ModuleError {
    /// The certificate verifier's typed reasons when the chain failed; empty for any other failure.
    var failures: [ValidationFailure] { get }
    /// An error with `code`, `reason` and the chain's typed failures.
    init(_ code: Code, _ reason: String, failures: [ValidationFailure])
}

extension ChainFailureError {
    /// An error with `code` and `reason`, and no chain failures.
    public init(_ code: Code, _ reason: String) { self.init(code, reason, failures: []) }
}
