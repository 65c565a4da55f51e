import HTTPServing
import Testing

@Suite struct UTCTimestampTests {
    @Test(arguments: [
        ("2024-02-29", true), ("2024-02-29T23:59:59Z", true), ("2024-01-15T10:30:00+02:00", true), ("2024-01-15T10:30:00.123Z", true),
        ("2025-02-29", false), ("2025-02-30T00:00:00Z", false), ("2025-04-31", false), ("2025-13-01", false), ("2025-00-10", false),
        ("2025-01-01T24:00:00Z", false), ("2025-01-01T23:60:00Z", false), ("2025-01-01T23:59:60Z", false), ("2025-1-01", false),
        ("2025-01-01 10:00:00", false), ("yesterday", false), ("", false),
    ])
    func aRealDayAndTimeOfDayIsTold(text: String, real: Bool) {
        #expect(UTCTimestamp.startsWithRealDayAndTime(text) == real)
    }

    @Test(arguments: [
        ("2025-02-28T00:00:01Z", Int64(1_740_700_801)), ("1970-01-01T00:00:00Z", 0), ("2025-02-29T00:00:00Z", nil), ("2025-02-28T24:00:00Z", nil),
        ("2025-02-28T00:00:01", nil), ("2025-02-28T00:00:01+00:00", nil),
    ] as [(String, Int64?)])
    func anInstantIsTheSecondItNames(text: String, epochSecond: Int64?) {
        #expect(UTCTimestamp.epochSecond(text) == epochSecond)
    }

    @Test(arguments: [("2025-02-28", Int64(1_740_700_800)), ("1970-01-01", 0), ("2025-02-29", nil), ("2025-2-28", nil)] as [(String, Int64?)])
    func aDayStartsAtItsUTCMidnight(text: String, epochSecond: Int64?) {
        #expect(UTCTimestamp.dayStart(text) == epochSecond)
    }
}
