import SigilASN1
import XCTest

/// RFC 3339 date-times as they were signed (receipts, mdoc tdates) and as the CLI reads them.
final class RFC3339TimestampTests: XCTestCase {
    func testFormsAndInstants() throws {
        XCTAssertEqual(RFC3339Timestamp.secondsSinceEpoch(of: "2020-10-01T13:30:02Z"), 1_601_559_002)
        XCTAssertEqual(RFC3339Timestamp.secondsSinceEpoch(of: "2020-10-01t13:30:02z"), 1_601_559_002)
        XCTAssertEqual(RFC3339Timestamp.secondsSinceEpoch(of: "2020-10-01T15:30:02+02:00"), 1_601_559_002)
        XCTAssertEqual(RFC3339Timestamp.secondsSinceEpoch(of: "2020-10-01T15:30:02+0200"), 1_601_559_002)
        XCTAssertEqual(RFC3339Timestamp.secondsSinceEpoch(of: "2020-10-01T11:30:02.999-02:00"), 1_601_559_002)
        let precise = try XCTUnwrap(RFC3339Timestamp("2026-04-21T18:13:12.1534Z"))
        XCTAssertEqual(precise.text, "2026-04-21T18:13:12.1534Z")
        XCTAssertEqual(precise.fractionDigits, "1534")
        XCTAssertEqual(precise.nanoseconds, 153_400_000)
        XCTAssertLessThan(try XCTUnwrap(RFC3339Timestamp("2026-04-21T18:13:12Z")), precise)
        for bad in [
            "", "2020-10-01", "2020-10-01T13:30:02", "2020-10-01 13:30:02Z", "2020/10/01T13:30:02Z", "2020-13-01T13:30:02Z",
            "2021-02-29T00:00:00Z", "2020-10-01T24:00:00Z", "2020-10-01T13:30:02ZZ", "2020-10-01T13:30:02+2", "2020-10-01T13:30:02.Z1",
        ] {
            XCTAssertNil(RFC3339Timestamp.secondsSinceEpoch(of: bad), bad)
        }
    }
}
