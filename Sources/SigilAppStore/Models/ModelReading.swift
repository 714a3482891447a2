import SigilBase
import SigilJOSE
import SigilX509

// The direct readers and writers of the App Store models: each model is read straight from the
// parsed JSON (`JSONValue`) and written back to it, without `Decoder`/`Encoder`, key paths or
// existentials, so the same code runs in the regular build and in Embedded Swift.
//
// They answer exactly as the models' `Codable` conformances do through `JSONValueDecoder` and
// `JSONEncoder` (DirectReaderDifferentialTests compares them on Apple's real data and on fuzzed
// variants of it): members read in declaration order, unknown members ignored, null an absent
// optional member, integers written as integers that fit the type, dates any JSON number of
// milliseconds under 10¹⁷ in magnitude, open enums keeping any raw value; a refusal names the
// member first in declaration order that fails, with the coding path and the words
// `JSONValueDecoder` gives. Writing lists the members present in declaration order, as the
// synthesized `Encodable` conformances do (JSONEncoder's own member order is not stable; with
// `.sortedKeys` the two write the same bytes).

/// Why a direct reader refused a JSON value: where (the members and array positions from the
/// document's top, as `JSONValueDecoder`'s coding path names them) and what. Internal: every
/// public entry point reports it as an ``AppStoreError``.
struct ModelReadFailure: Error {
    /// What went wrong at `path`.
    enum Problem: Sendable {
        /// A required member is absent (`DecodingError.keyNotFound`).
        case missing(String)
        /// The value at `path` is not what the model holds.
        case invalid(String)
    }

    /// The coding path, outermost first ("data", "items", "Index 0", …).
    var path: [String]
    /// What went wrong there.
    let problem: Problem

    /// A value of another kind than `expected` ("String", "an object", …).
    static func mismatch(_ expected: String, _ value: JSONValue) -> ModelReadFailure {
        ModelReadFailure(path: [], problem: .invalid("expected \(expected), found \(value.kindName)"))
    }

    /// A value of the right kind that the model cannot hold.
    static func invalid(_ text: String) -> ModelReadFailure { ModelReadFailure(path: [], problem: .invalid(text)) }

    /// The same failure one step further in: inside member or array position `step`.
    func within(_ step: String) -> ModelReadFailure {
        var failure = self
        failure.path.insert(step, at: 0)
        return failure
    }

    /// "path: what", or "missing path.member" — as the verifier words a `DecodingError`.
    var description: String {
        var location = ""
        for step in path { location += location.isEmpty ? step : "." + step }
        switch problem {
        case .missing(let name): return "missing " + (location.isEmpty ? "" : location + ".") + name
        case .invalid(let text): return location.isEmpty ? text : location + ": " + text
        }
    }

    /// The failure as the public entry points report it: `INVALID_JWT_FORMAT` with the description.
    var appStoreError: AppStoreError { AppStoreError(.invalidJWTFormat, description) }
}

/// A value a model member holds, read from and written to JSON as its `Codable` conformance
/// reads it from `JSONValueDecoder` and writes it to `JSONEncoder`.
protocol ModelValue {
    /// Reads the value. An optional member's null never reaches here (it is an absent member);
    /// a required member's null, or an array element's, does, and is refused.
    init(member value: JSONValue) throws(ModelReadFailure)
    /// The value as JSON.
    var memberJSON: JSONValue { get }
}

/// A model's members in declaration order — the order its `Decodable` conformance reads them
/// (so the order that decides which refusal is reported) and the order they are written in —
/// looked up by JSON name.
struct ModelMembers<Member: RawRepresentable & CaseIterable & Sendable>: Sendable where Member.RawValue == String {
    /// Every member, in declaration order.
    let all: [Member]
    /// Each member's position in `all`, by JSON name.
    let table: MemberNameTable

    /// The members of `Member`, in its declaration order.
    init() {
        all = Array(Member.allCases)
        var pairs: [(String, Int)] = []
        for (position, member) in all.enumerated() { pairs.append((member.rawValue, position)) }
        table = MemberNameTable(pairs: pairs)
    }

    /// The member called `name` and its position, or nil for a name the model does not have.
    @inline(__always)
    func lookup(_ name: String) -> (position: Int, member: Member)? {
        guard let position = table[name], position < all.count else { return nil }
        return (position, all[position])
    }

    /// The members' JSON names.
    var names: Set<String> {
        var names = Set<String>()
        for member in all { names.insert(member.rawValue) }
        return names
    }
}

/// A model read member by member from a JSON object: the loop, the choice of refusal and the
/// writing are shared; each model says how one member is read and written.
protocol DirectModel: ModelValue {
    /// The model's members: JSON names as raw values, in declaration order.
    associatedtype Member: RawRepresentable & CaseIterable & Sendable where Member.RawValue == String
    /// The members, looked up by name.
    static var members: ModelMembers<Member> { get }
    /// Whether `member` is required: null is then refused instead of read as absent.
    static func isRequired(_ member: Member) -> Bool
    /// The value with every member absent.
    init()
    /// Reads `member` from `value` (never an optional member's null).
    mutating func read(_ member: Member, from value: JSONValue) throws(ModelReadFailure)
    /// `member` as JSON, or nil when absent.
    func json(of member: Member) -> JSONValue?
}

/// The refusal a reader keeps: the first in declaration order, with the member's position.
struct ModelRefusal {
    /// The member's position in declaration order.
    let position: Int
    /// The failure, its path starting at the member.
    let failure: ModelReadFailure
}

extension DirectModel {
    static func isRequired(_ member: Member) -> Bool { false }

    /// Reads every member `json` carries that the model names (others are ignored) and returns
    /// the refusal of the one first in declaration order, or nil. Throws when `json` is not an
    /// object. The loop is `readObjectMembers`, one copy for every model; only the closure that
    /// reads one member is the model's own.
    @inline(__always)
    mutating func readMembers(of json: JSONValue) throws(ModelReadFailure) -> ModelRefusal? {
        let members = Self.members
        return try readObjectMembers(
            of: json, table: members.table,
            isOptionalNull: { position, value in
                if case .null = value { return !Self.isRequired(members.all[position]) }
                return false
            },
            read: { (position, value) throws(ModelReadFailure) in try self.read(members.all[position], from: value) })
    }

    init(member json: JSONValue) throws(ModelReadFailure) {
        self.init()
        if let refusal = try readMembers(of: json) { throw refusal.failure }
    }

    var memberJSON: JSONValue {
        var members: [(String, JSONValue)] = []
        for member in Self.members.all {
            if let value = json(of: member) { members.append((member.rawValue, value)) }
        }
        return .object(members)
    }
}

/// The loop of every model's reader: each member of `json` that `table` names (by position in
/// declaration order) is read by `read`, unless it is a null that `isOptionalNull` says is an
/// absent member; the refusal kept is the one first in declaration order. Not generic, so the
/// models share one copy of it.
@inline(never)
func readObjectMembers(
    of json: JSONValue, table: MemberNameTable, isOptionalNull: (Int, JSONValue) -> Bool,
    read: (Int, JSONValue) throws(ModelReadFailure) -> Void
) throws(ModelReadFailure) -> ModelRefusal? {
    guard case .object(let members) = json else { throw .mismatch("an object", json) }
    var refusal: ModelRefusal?
    for (name, value) in members {
        guard let position = table[name] else { continue }
        if let refusal, refusal.position < position { continue }
        if isOptionalNull(position, value) { continue }
        do { try read(position, value) } catch {
            refusal = ModelRefusal(position: position, failure: error.within(name))
        }
    }
    return refusal
}

extension DirectModel {
    /// A required member of a model read into this partial one, unwrapped in declaration order:
    /// the reader's kept refusal when it is this member's or an earlier one's, `missing` when the
    /// member is absent.
    func required<T>(_ value: T?, _ member: Member, _ refusal: ModelRefusal?) throws(ModelReadFailure) -> T {
        let position = Self.members.lookup(member.rawValue)?.position ?? 0
        if let refusal, refusal.position <= position { throw refusal.failure }
        guard let value else { throw ModelReadFailure(path: [], problem: .missing(member.rawValue)) }
        return value
    }
}

extension String: ModelValue {
    init(member value: JSONValue) throws(ModelReadFailure) {
        guard case .string(let text) = value else { throw .mismatch("String", value) }
        self = text
    }
    var memberJSON: JSONValue { .string(self) }
}

extension Bool: ModelValue {
    init(member value: JSONValue) throws(ModelReadFailure) {
        guard case .bool(let flag) = value else { throw .mismatch("Bool", value) }
        self = flag
    }
    var memberJSON: JSONValue { .bool(self) }
}

extension Int32: ModelValue {
    /// A JSON integer that fits (no fraction, no exponent), as `Int32(text)` reads it.
    init(member value: JSONValue) throws(ModelReadFailure) {
        guard case .number(let text) = value else { throw .mismatch("Int32", value) }
        guard let number = Int32(text) else { throw .invalid("the number \(text) is not a Int32") }
        self = number
    }
    var memberJSON: JSONValue { .number(String(self)) }
}

extension Int64: ModelValue {
    /// A JSON integer that fits (no fraction, no exponent), as `Int64(text)` reads it.
    init(member value: JSONValue) throws(ModelReadFailure) {
        guard case .number(let text) = value else { throw .mismatch("Int64", value) }
        guard let number = Int64(text) else { throw .invalid("the number \(text) is not a Int64") }
        self = number
    }
    var memberJSON: JSONValue { .number(String(self)) }
}

extension Array: ModelValue where Element: ModelValue {
    init(member value: JSONValue) throws(ModelReadFailure) {
        guard case .array(let elements) = value else { throw .mismatch("an array", value) }
        self.init()
        reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            do { append(try Element(member: element)) } catch { throw error.within("Index \(index)") }
        }
    }
    var memberJSON: JSONValue {
        var elements: [JSONValue] = []
        elements.reserveCapacity(count)
        for element in self { elements.append(element.memberJSON) }
        return .array(elements)
    }
}

extension AppStoreDate: ModelValue {
    /// A JSON number of milliseconds: its nearest Double (no strtod), finite and under 10¹⁷ in
    /// magnitude, as the `Decodable` initializer reads it.
    init(member value: JSONValue) throws(ModelReadFailure) {
        guard case .number(let text) = value else { throw .mismatch("Double", value) }
        guard let milliseconds = JSONValue.nearestDouble(toNumber: text), milliseconds.isFinite else {
            throw .invalid("the number \(text) does not fit a Double")
        }
        guard AppStoreDate.isInRange(milliseconds) else { throw .invalid(AppStoreDate.outOfRange) }
        self.init(millisecondsSince1970: milliseconds)
    }

    /// A whole number of milliseconds as a JSON integer, a fraction as the Double's shortest
    /// text (JSONEncoder's form); JSON has no NaN or infinity: null for those.
    var memberJSON: JSONValue {
        let value = millisecondsSince1970
        guard value.isFinite else { return .null }
        if value.rounded() == value, let whole = Int64(exactly: value) { return .number(String(whole)) }
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        return .number(text)
    }
}

/// The open enums are read as their raw value: any value, documented or not, is kept.
extension ModelValue where Self: AppleOpenEnum, RawValue == String {
    init(member value: JSONValue) throws(ModelReadFailure) { self.init(rawValue: try String(member: value)) }
    var memberJSON: JSONValue { .string(rawValue) }
}

/// The open enums are read as their raw value: any value, documented or not, is kept.
extension ModelValue where Self: AppleOpenEnum, RawValue == Int32 {
    init(member value: JSONValue) throws(ModelReadFailure) { self.init(rawValue: try Int32(member: value)) }
    var memberJSON: JSONValue { .number(String(rawValue)) }
}

#if Benchmarks
/// Benchmarks/ only (`@_spi(Benchmarks) import SigilAppStore`): turns the direct model readers
/// off in the verifiers, so one build measures the payload decode with them and with the generic
/// `JSONValueDecoder` they replaced.
@_spi(Benchmarks)
public enum DirectMemberDecoding {
    private static let state = Locked(true)

    /// Whether verifiers read payloads with the direct readers (true unless a benchmark turns it off).
    public static var isEnabled: Bool {
        get { state.withValue { $0 } }
        set { state.withValue { $0 = newValue } }
    }
}
#endif
