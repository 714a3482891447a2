import SigilBase
import SigilJOSE

/// The decrypted payment data of a token (the reference's "Payment data keys"), typed, with every
/// member Apple may add later kept in ``otherMembers``.
///
/// This is secret card data. Its `description`, `debugDescription` and mirror show no value, and
/// no Sigil error or trace ever includes one; the plaintext bytes are kept in ``plaintext`` for a
/// caller that forwards them. Swift strings cannot be zeroed: drop the value as soon as it is used.
public struct DecryptedPayment: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The kind of payment data.
    public enum PaymentData: Sendable {
        /// 3-D Secure: the online payment cryptogram (base64) and, when present, the ECI indicator.
        case threeDSecure(onlinePaymentCryptogram: String, eciIndicator: String?)
        /// EMV: the EMV payment structure (base64) and, when present, the encrypted PIN data (hex).
        case emv(emvData: String, encryptedPINData: String?)
        /// A `paymentDataType` this version of Sigil does not know, with its `paymentData` as given.
        case other(type: String, paymentData: JSONValue?)
    }

    /// The device account number (DPAN) or the card number.
    public let applicationPrimaryAccountNumber: String
    /// The expiration date, YYMMDD.
    public let applicationExpirationDate: String
    /// The ISO 4217 numeric currency code, as text.
    public let currencyCode: String
    /// The amount, in the currency's minor units, as Apple wrote the number.
    public let transactionAmount: String
    /// The cardholder's name, when present.
    public let cardholderName: String?
    /// The device manufacturer's identifier.
    public let deviceManufacturerIdentifier: String
    /// `paymentDataType` as given ("3DSecure" or "EMV").
    public let paymentDataType: String
    /// The payment data.
    public let paymentData: PaymentData
    /// Every other member, in the order received (for example `authenticationResponses`,
    /// `merchantTokenIdentifier`).
    public let otherMembers: [(String, JSONValue)]
    /// The decrypted bytes, exactly as AES-GCM returned them.
    public let plaintext: [UInt8]

    static let known: Set<String> = [
        "applicationPrimaryAccountNumber", "applicationExpirationDate", "currencyCode", "transactionAmount",
        "cardholderName", "deviceManufacturerIdentifier", "paymentDataType", "paymentData",
    ]

    /// Reads decrypted payment-data JSON. A failure names the member, never a value.
    public init(plaintext: [UInt8]) throws(ApplePayError) {
        func fail(_ reason: String) -> ApplePayError {
            ApplePayError(.malformedPaymentData, reason, step: "payment data", clause: "Payment Token Format Reference, payment data keys")
        }
        let root: JSONValue
        do { root = try JSONValue(parsing: plaintext) } catch {
            // The parser's reason could quote decrypted text: only its position class is kept.
            throw fail("the decrypted data is not JSON (\(plaintext.count) bytes)")
        }
        guard case .object(let members) = root else { throw fail("the decrypted data is not a JSON object") }
        func string(_ name: String) throws(ApplePayError) -> String {
            guard let value = root[name]?.stringValue else { throw fail("no string member \"\(name)\"") }
            return value
        }
        applicationPrimaryAccountNumber = try string("applicationPrimaryAccountNumber")
        applicationExpirationDate = try string("applicationExpirationDate")
        currencyCode = try string("currencyCode")
        guard case .number(let amount)? = root["transactionAmount"] else { throw fail("no number member \"transactionAmount\"") }
        transactionAmount = amount
        cardholderName = root["cardholderName"]?.stringValue
        deviceManufacturerIdentifier = try string("deviceManufacturerIdentifier")
        paymentDataType = try string("paymentDataType")
        let data = root["paymentData"]
        switch paymentDataType {
        case "3DSecure":
            guard let cryptogram = data?["onlinePaymentCryptogram"]?.stringValue else {
                throw fail("3DSecure payment data has no string member \"onlinePaymentCryptogram\"")
            }
            paymentData = .threeDSecure(onlinePaymentCryptogram: cryptogram, eciIndicator: data?["eciIndicator"]?.stringValue)
        case "EMV":
            guard let emv = data?["emvData"]?.stringValue else { throw fail("EMV payment data has no string member \"emvData\"") }
            paymentData = .emv(emvData: emv, encryptedPINData: data?["encryptedPINData"]?.stringValue)
        default:
            paymentData = .other(type: paymentDataType, paymentData: data)
        }
        otherMembers = members.filter { !Self.known.contains($0.0) }
        self.plaintext = plaintext
    }

    /// Shows no value.
    public var description: String {
        "DecryptedPayment(\(paymentDataType), \(otherMembers.count) other member(s), redacted)"
    }

    /// Shows no value.
    public var debugDescription: String { description }

    /// Shows no value (what `dump` and debuggers print).
    public var customMirror: Mirror { Mirror(self, children: ["redacted": paymentDataType]) }
}
