import EventSourcing
import Testing

/// Identity streams already in logs are named by the hex of their subject's SHA-256: the hand-written
/// hex must name them exactly as `String(format: "%02x")` did.
@Suite struct HexTests {
    @Test func bytesAreTwoLowercaseDigitsEach() {
        #expect([UInt8]().lowercaseHex == "")
        #expect([0x00, 0x0F, 0xA5, 0xFF, 0x10].lowercaseHex == "000fa5ff10")
    }

    @Test func anIdentityStreamKeepsItsName() {
        #expect(SignInIdentity(provider: "dev", subject: "ana").stream == "identity-dev-e63ca8068d941616591b5c6d696dcc7e1af3a9aafc8563443b18b44e104f4a61")
    }
}
