import Foundation
import HTTPTypes
import NuvieAPI
import Testing
import TestSupport

/// Sessions through the live server: logout ends this device's, logout-all every one, a refresh
/// token is spent by its refresh and presenting it again ends its whole family (OAuth 2.0 Security
/// BCP); each of these is an event, and deleting an account needs a recent sign-in.
@Suite(.timeLimit(.minutes(2))) struct SessionTests {
    static let signIn = #"{"provider":"dev","user_identifier":"movielens-2"}"#

    @Test func aReusedRefreshTokenEndsItsWholeFamilyAndOnlyIt() async throws {
        try await withLiveServer { client in
            let first = try await client.send(.post, "/auth/login", body: Self.signIn)
            let other = try #require(try await client.send(.post, "/auth/login", body: Self.signIn).json["access_token"] as? String)
            let spent = try #require(first.json["refresh_token"] as? String)
            let rotated = try await client.send(.post, "/auth/refresh", body: #"{"refresh_token":"\#(spent)"}"#)
            #expect(rotated.status == .ok)
            let current = try #require(rotated.json["refresh_token"] as? String), access = try #require(rotated.json["access_token"] as? String)
            #expect(current != spent)
            #expect(try await client.send(.get, "/users/me", token: access).status == .ok)

            let head = try await client.headPosition()
            let reuse = try await client.send(.post, "/auth/refresh", body: #"{"refresh_token":"\#(spent)"}"#)
            #expect(reuse.status == .unauthorized && reuse.errorCode == "REFRESH_TOKEN_REUSED")
            #expect(try await client.headPosition() == head + 1, "the reuse is recorded: the session ended")
            #expect(try await client.send(.post, "/auth/refresh", body: #"{"refresh_token":"\#(current)"}"#).status == .unauthorized)
            #expect(try await client.send(.get, "/users/me", token: access).status == .unauthorized, "the family's access token too")
            #expect(try await client.send(.get, "/users/me", token: other).status == .ok, "another device's session lives on")
        }
    }

    /// An app that sends its stored access token with every request still refreshes, signs in and
    /// reads health once that token has expired or been signed out; a signed-in route still refuses it.
    @Test func aStaleAccessTokenStopsOnlyTheRoutesThatNeedOne() async throws {
        try await withLiveServer { client in
            let login = try await client.send(.post, "/auth/login", body: Self.signIn)
            let access = try #require(login.json["access_token"] as? String), refresh = try #require(login.json["refresh_token"] as? String)
            // An app may send the refresh token it holds when it signs out; a field logout does not read is refused.
            #expect(try await client.send(.post, "/auth/logout", token: access, body: #"{"refresh_tokn":"x"}"#).status == .badRequest)
            #expect(try await client.send(.post, "/auth/logout", token: access, body: #"{"refresh_token":"\#(refresh)"}"#).status == .noContent)
            let again = try await client.send(.post, "/auth/login", token: access, body: Self.signIn)
            #expect(again.status == .ok, "\(again.text)")
            let live = try #require(again.json["refresh_token"] as? String)
            for stale in [access, "garbage"] {
                let stopped = try await client.send(.get, "/users/me", token: stale)
                #expect(stopped.status == .unauthorized && stopped.errorCode == "AUTHENTICATION_REQUIRED" && stopped.text.contains("expired"), "\(stopped.text)")
                #expect(try await client.send(.get, "/health", token: stale).status == .ok)
            }
            #expect(try await client.send(.post, "/auth/refresh", token: access, body: #"{"refresh_token":"\#(refresh)"}"#).status == .unauthorized, "its session ended")
            let refreshed = try await client.send(.post, "/auth/refresh", token: "garbage", body: #"{"refresh_token":"\#(live)"}"#)
            #expect(refreshed.status == .ok, "\(refreshed.text)")
            let fresh = try #require(refreshed.json["access_token"] as? String)
            #expect(try await client.send(.get, "/users/me", token: fresh).status == .ok)
        }
    }

    @Test func logoutEndsThisDeviceAndLogoutAllEndsEveryDevice() async throws {
        try await withLiveServer { client in
            let phone = try await client.send(.post, "/auth/login", body: Self.signIn)
            let phoneAccess = try #require(phone.json["access_token"] as? String), phoneRefresh = try #require(phone.json["refresh_token"] as? String)
            let tablet = try #require(try await client.send(.post, "/auth/login", body: Self.signIn).json["access_token"] as? String)
            let laptop = try #require(try await client.send(.post, "/auth/login", body: Self.signIn).json["access_token"] as? String)
            #expect(try await client.send(.get, "/users/me", token: phoneAccess).status == .ok)

            #expect(try await client.send(.post, "/auth/logout", token: phoneAccess).status == .noContent)
            #expect(try await client.send(.get, "/users/me", token: phoneAccess).status == .unauthorized)
            #expect(try await client.send(.post, "/auth/refresh", body: #"{"refresh_token":"\#(phoneRefresh)"}"#).status == .unauthorized)
            #expect(try await client.send(.get, "/users/me", token: tablet).status == .ok)

            #expect(try await client.send(.post, "/auth/logout-all", token: tablet).status == .noContent)
            for token in [tablet, laptop] { #expect(try await client.send(.get, "/users/me", token: token).status == .unauthorized) }
            let again = try #require(try await client.send(.post, "/auth/login", body: Self.signIn).json["access_token"] as? String)
            #expect(try await client.send(.get, "/users/me", token: again).status == .ok, "signing in again starts a new session")
        }
    }

    @Test func deletingTheAccountNeedsARecentSignIn() async throws {
        try await withLiveServer { client in
            let login = try await client.send(.post, "/auth/login", body: #"{"provider":"dev","user_identifier":"stale-1","name":"Stale"}"#)
            let access = try #require(login.json["access_token"] as? String)
            // The same session, signed in an hour ago: what an old token refreshed since would carry.
            let claims = try #require(tokenClaims(access))
            let subject = try #require(claims["sub"] as? String), sid = try #require(claims["sid"] as? String)
            let userId = try #require(Int64(subject)), sessionId = try #require(UUID(uuidString: sid))
            let stale = try await NuvieTokens(secret: HardeningTests.testSecret, isLive: { _, _ in true })
                .issue(for: userId, sessionId: sessionId, refreshTokenId: UUID(), authenticatedAt: Date().addingTimeInterval(-3600))
            let refused = try await client.send(.delete, "/users/me", token: stale.accessToken)
            #expect(refused.status == .unauthorized && refused.errorCode == "REAUTHENTICATION_REQUIRED")
            #expect(try await client.send(.get, "/users/me", token: access).status == .ok, "refused, and nothing erased")
            #expect(try await client.send(.delete, "/users/me", token: access).status == .noContent)
            #expect(try await client.send(.get, "/users/me", token: access).status == .unauthorized)
        }
    }
}
