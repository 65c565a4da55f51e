import HummingbirdTesting
import JWTKit
import Testing
@Test func stub() {}
