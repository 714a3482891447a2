/// The tag of an ASN.1 element: its class and number (X.690 8.1.2).
///
/// Whether the element is constructed is a property of the encoding, not of the tag, and lives
/// on ``ASN1Node``; two identifiers are equal when class and number are.
public struct ASN1Identifier: Hashable, Sendable, CustomStringConvertible {
    /// The tag class (X.690 8.1.2.2).
    public enum TagClass: UInt8, Sendable {
        /// UNIVERSAL: the types X.680 defines.
        case universal = 0
        /// APPLICATION.
        case application = 1
        /// Context-specific: `[n]` tags within a type.
        case contextSpecific = 2
        /// PRIVATE.
        case `private` = 3
    }

    /// The class.
    public let tagClass: TagClass
    /// The number within the class.
    public let tagNumber: UInt32

    /// The identifier of class `tagClass` and number `tagNumber`.
    public init(tagClass: TagClass, tagNumber: UInt32) {
        self.tagClass = tagClass
        self.tagNumber = tagNumber
    }

    /// `[number]` in a module's context-specific class, as used for IMPLICIT and EXPLICIT tags.
    public static func contextSpecific(_ number: UInt32) -> ASN1Identifier {
        ASN1Identifier(tagClass: .contextSpecific, tagNumber: number)
    }

    /// `[APPLICATION number]`.
    public static func application(_ number: UInt32) -> ASN1Identifier {
        ASN1Identifier(tagClass: .application, tagNumber: number)
    }

    static func universal(_ number: UInt32) -> ASN1Identifier {
        ASN1Identifier(tagClass: .universal, tagNumber: number)
    }

    // X.680 8.6, Table 1: the universal class tag assignments Sigil uses.
    /// BOOLEAN (UNIVERSAL 1).
    public static let boolean = universal(1)
    /// INTEGER (UNIVERSAL 2).
    public static let integer = universal(2)
    /// BIT STRING (UNIVERSAL 3).
    public static let bitString = universal(3)
    /// OCTET STRING (UNIVERSAL 4).
    public static let octetString = universal(4)
    /// NULL (UNIVERSAL 5).
    public static let null = universal(5)
    /// OBJECT IDENTIFIER (UNIVERSAL 6).
    public static let objectIdentifier = universal(6)
    /// ENUMERATED (UNIVERSAL 10).
    public static let enumerated = universal(10)
    /// UTF8String (UNIVERSAL 12).
    public static let utf8String = universal(12)
    /// SEQUENCE and SEQUENCE OF (UNIVERSAL 16).
    public static let sequence = universal(16)
    /// SET and SET OF (UNIVERSAL 17).
    public static let set = universal(17)
    /// NumericString (UNIVERSAL 18).
    public static let numericString = universal(18)
    /// PrintableString (UNIVERSAL 19).
    public static let printableString = universal(19)
    /// TeletexString (UNIVERSAL 20).
    public static let teletexString = universal(20)
    /// IA5String (UNIVERSAL 22).
    public static let ia5String = universal(22)
    /// UTCTime (UNIVERSAL 23).
    public static let utcTime = universal(23)
    /// GeneralizedTime (UNIVERSAL 24).
    public static let generalizedTime = universal(24)
    /// VisibleString (UNIVERSAL 26).
    public static let visibleString = universal(26)
    /// UniversalString (UNIVERSAL 28).
    public static let universalString = universal(28)
    /// BMPString (UNIVERSAL 30).
    public static let bmpString = universal(30)

    /// The tag as X.680 writes it: the universal type's name, or `[n]` with its class.
    public var description: String {
        switch tagClass {
        case .universal:
            return Self.universalNames[tagNumber] ?? "UNIVERSAL \(tagNumber)"
        case .application: return "[APPLICATION \(tagNumber)]"
        case .contextSpecific: return "[\(tagNumber)]"
        case .private: return "[PRIVATE \(tagNumber)]"
        }
    }

    private static let universalNames: [UInt32: String] = [
        1: "BOOLEAN", 2: "INTEGER", 3: "BIT STRING", 4: "OCTET STRING", 5: "NULL",
        6: "OBJECT IDENTIFIER", 7: "ObjectDescriptor", 8: "EXTERNAL", 9: "REAL", 10: "ENUMERATED",
        11: "EMBEDDED PDV", 12: "UTF8String", 13: "RELATIVE-OID", 16: "SEQUENCE", 17: "SET",
        18: "NumericString", 19: "PrintableString", 20: "TeletexString", 21: "VideotexString",
        22: "IA5String", 23: "UTCTime", 24: "GeneralizedTime", 25: "GraphicString",
        26: "VisibleString", 27: "GeneralString", 28: "UniversalString", 30: "BMPString",
    ]

    /// How a universal tag may be encoded (X.690 8.x for each type, 10.2 for DER).
    enum Construction {
        case primitiveOnly
        case constructedOnly
        /// Primitive in DER; either form in BER (strings may be split into segments).
        case primitiveInDER
        case either
    }

    @inline(__always)
    var universalConstruction: Construction {
        guard tagClass == .universal else { return .either }
        switch tagNumber {
        case 1, 2, 5, 6, 9, 10, 13, 14: return .primitiveOnly
        case 8, 11, 16, 17: return .constructedOnly
        case 3, 4, 7, 12, 18...30: return .primitiveInDER
        default: return .either
        }
    }
}
