import Foundation
import Synchronization

/// The receiver's counters, served by `GET /metrics` in the Prometheus text exposition format
/// (version 0.0.4). Per process: a deployment of several receivers sums them in Prometheus.
///
/// - `sigil_receiver_notifications_total{outcome}`: App Store notifications answered 200
///   (`stored`, `duplicate`) or refused (`refused`);
/// - `sigil_receiver_notifications_refused_total{reason}`: refusals by the answer's status code
///   (an `AppStoreError` code, `MALFORMED_BODY`, `BODY_TOO_LARGE`, `STORAGE_FAILURE`, …);
/// - `sigil_receiver_verification_seconds`: a histogram of the verification time of each notification;
/// - `sigil_receiver_store_errors_total{route}`: database calls that failed or timed out;
/// - `sigil_receiver_siwa_notifications_total{outcome}`: Sign in with Apple notifications
///   (`stored`, `duplicate`, or the refusal's code);
/// - `sigil_receiver_challenges_refused_total{reason}`: App Attest challenges refused (`rate`, `cap`);
/// - `sigil_receiver_http_unauthorized_total`: read or operator requests without the API key.
public final class ReceiverMetrics: Sendable {
    /// Upper bounds of the verification histogram's buckets, seconds.
    public static let verificationBuckets: [Double] = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1]
    /// The most distinct label values one counter keeps; later ones are counted under "other".
    static let maximumLabelValues = 64

    struct State {
        var counters: [String: [String: Int]] = [:]
        var bucketCounts = [Int](repeating: 0, count: ReceiverMetrics.verificationBuckets.count)
        var verificationCount = 0
        var verificationSum = 0.0
    }
    private let state = Mutex(State())

    public init() {}

    /// Adds one to `name{label=value}`.
    public func count(_ name: String, _ value: String) {
        state.withLock { state in
            var family = state.counters[name] ?? [:]
            let key = family[value] != nil || family.count < Self.maximumLabelValues ? value : "other"
            family[key, default: 0] += 1
            state.counters[name] = family
        }
    }

    /// Records one verification's duration.
    public func observeVerification(seconds: Double) {
        state.withLock { state in
            for (index, bound) in Self.verificationBuckets.enumerated() where seconds <= bound { state.bucketCounts[index] += 1 }
            state.verificationCount += 1
            state.verificationSum += seconds
        }
    }

    /// Families: name, help, label name.
    static let families: [(String, String, String)] = [
        ("sigil_receiver_notifications_total", "App Store notifications answered, by outcome.", "outcome"),
        ("sigil_receiver_notifications_refused_total", "App Store notifications refused, by reason.", "reason"),
        ("sigil_receiver_store_errors_total", "Database calls that failed or timed out, by route.", "route"),
        ("sigil_receiver_siwa_notifications_total", "Sign in with Apple notifications answered, by outcome.", "outcome"),
        ("sigil_receiver_challenges_refused_total", "App Attest challenges refused, by reason.", "reason"),
        ("sigil_receiver_http_unauthorized_total", "Read or operator requests refused for want of the API key, by route.", "route"),
    ]

    /// The exposition text; `gauges` adds gauges (name, help, value) measured at scrape time.
    public func render(gauges: [(String, String, Double)] = []) -> String {
        let snapshot = state.withLock { $0 }
        var text = ""
        for (name, help, label) in Self.families {
            text += "# HELP \(name) \(help)\n# TYPE \(name) counter\n"
            for (value, count) in (snapshot.counters[name] ?? [:]).sorted(by: { $0.key < $1.key }) {
                text += "\(name){\(label)=\"\(Self.escape(value))\"} \(count)\n"
            }
        }
        let histogram = "sigil_receiver_verification_seconds"
        text += "# HELP \(histogram) Time to verify one App Store notification and its signed items.\n# TYPE \(histogram) histogram\n"
        for (index, bound) in Self.verificationBuckets.enumerated() {
            text += "\(histogram)_bucket{le=\"\(bound)\"} \(snapshot.bucketCounts[index])\n"
        }
        text += "\(histogram)_bucket{le=\"+Inf\"} \(snapshot.verificationCount)\n"
        text += "\(histogram)_sum \(snapshot.verificationSum)\n\(histogram)_count \(snapshot.verificationCount)\n"
        for (name, help, value) in gauges {
            text += "# HELP \(name) \(help)\n# TYPE \(name) gauge\n\(name) \(value)\n"
        }
        return text
    }

    /// A label value escaped as the format requires (backslash, quote, newline).
    static func escape(_ value: String) -> String {
        value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "\n", with: "\\n")
    }
}
