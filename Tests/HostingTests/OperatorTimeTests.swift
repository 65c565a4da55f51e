import Foundation
import ProductHosting
import Testing

/// Times as an operator types them, in `?from=`, `?to=`, the console and `--time`: a whole time with
/// its zone, or a date; nothing after it.
@Suite struct OperatorTimeTests {
    @Test func aTimeWithItsZoneOrADateIsRead() throws {
        #expect(OperatorTime.parse("2024-01-15T10:30:00Z") == Date(timeIntervalSince1970: 1_705_314_600))
        #expect(OperatorTime.parse("2024-01-15T10:30:00.250Z") == Date(timeIntervalSince1970: 1_705_314_600.25))
        #expect(OperatorTime.parse("2024-01-15T16:00:00+05:30") == Date(timeIntervalSince1970: 1_705_314_600))
        #expect(OperatorTime.parse("2024-01-15") == Date(timeIntervalSince1970: 1_705_276_800))
    }

    @Test func anythingAfterTheZoneIsRefused() {
        for text in ["2024-01-15T10:30:00Zgarbage", "2024-01-15T10:30:00Z1234", "2024-01-15T10:30:00+0530junk", "2024-01-15T10:30:00+05:30x",
                     "2024-01-15T10:30:00", "2024-01-15T10:30:00.Z", "2024-01-15T10:30:00 Z", "2024-01-15x"] {
            #expect(OperatorTime.parse(text) == nil, "\(text)")
        }
    }
}
