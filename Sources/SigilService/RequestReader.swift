import SigilASN1
import SigilBase
import SigilJOSE
import SigilX509

/// Reads a request document's members with the checks every member gets: the type, a size bound,
/// and no member the schema does not name. One copy for verification and token requests.
struct RequestReader {
    let members: [(String, JSONValue)]

    /// Parses `bytes` (at most `maximumBytes`) into an object whose member names are all in `allowed`.
    init(_ bytes: [UInt8], maximumBytes: Int, allowed: Set<String>) throws(ServiceError) {
        guard bytes.count <= maximumBytes else {
            throw ServiceError(.tooLarge, "the request is \(bytes.count) bytes; at most \(maximumBytes) are accepted")
        }
        let document: JSONValue
        do { document = try JSONValue(parsing: bytes) } catch {
            throw ServiceError(.invalidJSON, "the request is not one JSON text: \(error.reason)")
        }
        guard case .object(let members) = document else {
            throw ServiceError(.notAnObject, "the request is JSON but not an object")
        }
        for (name, _) in members where !allowed.contains(name) {
            throw ServiceError(
                .unknownMember, "unknown member \"\(Self.shown(name))\" (known: \(allowed.sorted().joined(separator: ", ")))")
        }
        self.members = members
    }

    /// The same members but `name`'s (a request drops the member holding a secret once read).
    func removing(_ name: String) -> RequestReader { RequestReader(members: members.filter { $0.0 != name }) }

    private init(members: [(String, JSONValue)]) { self.members = members }

    /// A member name as shown in a message: at most 64 characters of it.
    static func shown(_ name: String) -> String { name.shortened(toScalars: 64) }

    func value(_ name: String) -> JSONValue? {
        guard let value = members.first(where: { $0.0 == name })?.1 else { return nil }
        if case .null = value { return nil }
        return value
    }

    func string(_ name: String, maximumLength: Int = 1 << 20) throws(ServiceError) -> String? {
        guard let value = value(name) else { return nil }
        guard let text = value.stringValue else { throw ServiceError(.invalidMember, "\(name) must be a string") }
        guard text.utf8.count <= maximumLength else {
            throw ServiceError(.invalidMember, "\(name) is \(text.utf8.count) bytes; at most \(maximumLength)")
        }
        return text
    }

    func requiredString(_ name: String, maximumLength: Int = 1 << 20, for purpose: String) throws(ServiceError) -> String {
        guard let text = try string(name, maximumLength: maximumLength) else {
            throw ServiceError(.missingMember, "\(name) is required \(purpose)")
        }
        guard !text.isEmpty else { throw ServiceError(.invalidMember, "\(name) is empty") }
        return text
    }

    func integer(_ name: String, in range: ClosedRange<Int64>) throws(ServiceError) -> Int64? {
        guard let value = value(name) else { return nil }
        guard let number = value.int64Value, range.contains(number) else {
            throw ServiceError(.invalidMember, "\(name) must be an integer from \(range.lowerBound) to \(range.upperBound)")
        }
        return number
    }

    func bool(_ name: String) throws(ServiceError) -> Bool? {
        guard let value = value(name) else { return nil }
        guard let flag = value.boolValue else { throw ServiceError(.invalidMember, "\(name) must be true or false") }
        return flag
    }

    func strings(_ name: String, maximumCount: Int, maximumLength: Int) throws(ServiceError) -> [String]? {
        guard let value = value(name) else { return nil }
        guard let array = value.arrayValue else { throw ServiceError(.invalidMember, "\(name) must be an array of strings") }
        guard !array.isEmpty, array.count <= maximumCount else {
            throw ServiceError(.invalidMember, "\(name) must hold 1 to \(maximumCount) strings, not \(array.count)")
        }
        var out: [String] = []
        for (index, element) in array.enumerated() {
            guard let text = element.stringValue, !text.isEmpty, text.utf8.count <= maximumLength else {
                throw ServiceError(.invalidMember, "\(name)[\(index)] must be a non-empty string of at most \(maximumLength) bytes")
            }
            out.append(text)
        }
        return out
    }

    /// Standard base64 (padding required) of at most `maximumBytes` decoded bytes.
    func base64(_ name: String, maximumBytes: Int = 1 << 16) throws(ServiceError) -> [UInt8]? {
        guard let text = try string(name, maximumLength: (maximumBytes + 2) / 3 * 4) else { return nil }
        do { return try Base64.decode(Array(text.utf8)) } catch {
            throw ServiceError(.invalidMember, "\(name) is not standard base64: \(error.reason)")
        }
    }

    /// Certificates given as PEM text (one or more) or as base64 of DER, each element of `name`.
    func certificates(_ name: String) throws(ServiceError) -> [Certificate]? {
        guard let texts = try strings(name, maximumCount: 8, maximumLength: 1 << 16) else { return nil }
        var out: [Certificate] = []
        for (index, text) in texts.enumerated() {
            var ders: [[UInt8]] = []
            if Self.holdsPEMBoundary(text) {
                do { ders = try PEMDocument.parseAll(text).map { $0.derBytes } } catch {
                    throw ServiceError(.invalidMember, "\(name)[\(index)] is not PEM: \(error.reason)")
                }
            } else {
                do { ders = [try Base64.decode(Array(text.utf8))] } catch {
                    throw ServiceError(.invalidMember, "\(name)[\(index)] is neither PEM nor base64 of DER: \(error.reason)")
                }
            }
            for der in ders {
                do { out.append(try Certificate(derEncoded: der)) } catch {
                    throw ServiceError(.invalidMember, "\(name)[\(index)] is not a certificate: \(error.qualifiedCode): \(error.reason)")
                }
            }
        }
        return out
    }

    /// Whether `text` holds "-----BEGIN" anywhere (PEM rather than base64 of DER): a byte search,
    /// as Embedded Swift has no substring search on `String`.
    static func holdsPEMBoundary(_ text: String) -> Bool {
        let marker = Array("-----BEGIN".utf8)
        let bytes = Array(text.utf8)
        guard bytes.count >= marker.count else { return false }
        for start in 0...(bytes.count - marker.count) where bytes[start] == marker[0] {
            if bytes[start..<(start + marker.count)].elementsEqual(marker) { return true }
        }
        return false
    }
}
