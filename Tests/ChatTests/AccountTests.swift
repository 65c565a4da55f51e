import ChatCommands
import ChatDomain
import EventSourcing
import Foundation
import Testing

/// Signing up, logging in and out: emails in any case, tokens stored hashed and revocable,
/// passwords in Django's format, failed logins throttled.
@Suite struct AccountTests {
    /// Django's `isoformat()`: microseconds and `+00:00`.
    static func isDjangoTime(_ value: Any?) -> Bool {
        (value as? String)?.wholeMatch(of: #/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}\+00:00/#) != nil
    }

    @Test func signupAndLoginAnswerTheUserPayloadWithAToken() async throws {
        try await ChatLiveServer.run { server in
            let signup = try await server.client.signUp("Ana@Example.com", extra: #","first_name":"Ana","last_name":"Lopez""#)
            #expect(Set(signup.keys) == ["id", "username", "email", "first_name", "last_name", "date_joined", "last_login", "token"])
            #expect(signup["email"] as? String == "ana@example.com")
            #expect(signup["username"] as? String == "ana@example.com")
            #expect(signup["first_name"] as? String == "Ana")
            let login = try await server.client.send(.post, "/api/login/", json: #"{"email":"ANA@example.COM","password":"correct horse battery"}"#)
            #expect(login.status == .ok)
            #expect(login.json["id"] as? Int == signup["id"] as? Int)
            let token = try #require(login.json["token"] as? String)
            #expect(token.wholeMatch(of: #/[0-9a-f]{40}/#) != nil)
            #expect(token != signup["token"] as? String)
            #expect(Self.isDjangoTime(login.json["date_joined"]))
            #expect(Self.isDjangoTime(login.json["last_login"]))
            #expect(try await server.client.send(.get, "/api/chat/sessions/", token: token).status == .ok)
        }
    }

    @Test func anEmailHasOneAccountWhateverItsCase() async throws {
        try await ChatLiveServer.run { server in
            _ = try await server.client.signUp("ben@example.com")
            let before = server.storage.headPosition
            let again = try await server.client.send(.post, "/api/signup/", json: #"{"email":"BEN@example.com","password":"another password"}"#)
            #expect(again.status == .badRequest)
            #expect(again.errorCode == "email_taken")
            #expect(again.isErrorShape)
            #expect(server.storage.headPosition == before)
        }
    }

    /// An address is one account however a keyboard composed it (NFKC, as Django normalises
    /// usernames); one recorded uncomposed, before addresses were composed, still signs in and
    /// still has its address.
    @Test func anEmailHasOneAccountHoweverItIsComposed() async throws {
        try await ChatLiveServer.run { server in
            func signUp(_ email: String) async throws -> ChatClient.Reply {
                try await server.client.send(.post, "/api/signup/", json: "{\"email\":\"\(email)\",\"password\":\"correct horse battery\"}")
            }
            _ = try await server.client.signUp("\u{FC}@example.com")
            let before = server.storage.headPosition
            for other in ["u\u{308}@example.com", "\u{FF35}\u{308}@example.com"] {
                let again = try await signUp(other)
                #expect(again.status == .badRequest && again.errorCode == "email_taken", "\(again.text)")
                _ = try await server.client.token(other)
            }
            #expect(server.storage.headPosition > before)  // the logins' tokens, and no second account

            let uncomposed = "o\u{308}@example.com"
            let registration = UserRegistration(store: server.storage.stores.store, userStreamPrefix: ChatStreams.userPrefix) { event in
                if case .identityClaimed(let claim) = event { claim.userId } else { nil }
            }
            let hash = try DjangoPassword.encode("correct horse battery", salt: "recorded-before", iterations: 1_000)
            _ = try await registration.signIn(SignInIdentity(provider: "email", subject: uncomposed)) { userId in
                (.identityClaimed(EmailClaimed(email: uncomposed, userId: userId)),
                 .userRegistered(UserRegistered(userId: userId, email: uncomposed, profile: ChatProfile(username: "o", firstName: "", lastName: ""), passwordHash: hash)))
            }
            _ = try await server.client.token(uncomposed)
            _ = try await server.client.token("\u{F6}@example.com")
            #expect(try await signUp("\u{F6}@example.com").errorCode == "email_taken")
            #expect(try await signUp(uncomposed).errorCode == "email_taken")
        }
    }

    @Test func badSignupsAreRefusedAndRecordNothing() async throws {
        try await ChatLiveServer.run { server in
            let before = server.storage.headPosition
            for (body, field) in [
                (#"{"password":"long enough pass"}"#, "email"),
                (#"{"email":"not-an-email","password":"long enough pass"}"#, "email"),
                (#"{"email":"c@example.com","password":"short"}"#, "password"),
                (#"{"email":"c@example.com","password":"12345678901"}"#, "password"),
                (#"{"email":"c@example.com","password":"long enough pass","username":"has space"}"#, "username"),
                (#"{"email":"c@example.com","password":7}"#, "password"),
            ] {
                let reply = try await server.client.send(.post, "/api/signup/", json: body)
                #expect(reply.status == .badRequest, "\(body)")
                #expect(reply.isErrorShape && reply.json["detail"] as? String == field, "\(body): \(reply.text)")
            }
            #expect(try await server.client.send(.post, "/api/signup/", json: "{bad json").errorCode == "parse_error")
            #expect(try await server.client.send(.post, "/api/signup/", body: .init(string: "email=x"), headers: [.contentType: "application/x-www-form-urlencoded"]).status == .unsupportedMediaType)
            #expect(server.storage.headPosition == before)
            // A valid address whose characters no username may hold is still a valid signup.
            let apostrophe = try await server.client.signUp("o'brien@example.com")
            #expect(apostrophe["username"] as? String == "o_brien@example.com" && apostrophe["email"] as? String == "o'brien@example.com")
        }
    }

    @Test func aWrongPasswordAndAnUnknownEmailGetTheSameAnswer() async throws {
        try await ChatLiveServer.run { server in
            _ = try await server.client.signUp("dee@example.com")
            let wrong = try await server.client.send(.post, "/api/login/", json: #"{"email":"dee@example.com","password":"not the password"}"#)
            let unknown = try await server.client.send(.post, "/api/login/", json: #"{"email":"nobody@example.com","password":"not the password"}"#)
            #expect(wrong.status == .badRequest && unknown.status == .badRequest)
            #expect(wrong.text == unknown.text)
            #expect(wrong.errorCode == "invalid_credentials")
        }
    }

    @Test func logoutRevokesThatTokenOnly() async throws {
        try await ChatLiveServer.run { server in
            let first = try await server.client.newUser("eve@example.com")
            let second = try await server.client.token("eve@example.com")
            #expect(try await server.client.send(.post, "/api/logout/", token: first).status == .noContent)
            let revoked = try await server.client.send(.get, "/api/chat/sessions/", token: first)
            #expect(revoked.status == .unauthorized)
            #expect(revoked.errorCode == "authentication_failed")
            #expect(revoked.headers[.wwwAuthenticate] == "Token")
            #expect(try await server.client.send(.get, "/api/chat/sessions/", token: second).status == .ok)
        }
    }

    /// Every login issues a token and only a logout ended one: a client that logged in at every launch
    /// piled them up for good, in the read models and in the account's fold.
    @Test func aUserHoldsAtMostTheNewestTokensKept() async throws {
        try await ChatLiveServer.run { server in
            let first = try await server.client.newUser("gil@example.com")
            var latest = first
            for _ in 0..<ChatCommandService.liveTokensKept { latest = try await server.client.token("gil@example.com") }
            #expect(try await server.client.send(.get, "/api/chat/sessions/", token: first).status == .unauthorized)
            #expect(try await server.client.send(.get, "/api/chat/sessions/", token: latest).status == .ok)
            let user = try #require(try await server.storage.commands.authenticate(email: "gil@example.com", password: "correct horse battery"))
            #expect(user.liveTokens.count == ChatCommandService.liveTokensKept)
        }
    }

    @Test func tokensAreRecordedOnlyAsTheirHashes() async throws {
        try await ChatLiveServer.run { server in
            let token = try await server.client.newUser("fay@example.com")
            let log = try Data(contentsOf: server.storage.stores.directory.log.appendingPathComponent("data.mdb"))
            #expect(log.range(of: Data(token.utf8)) == nil)
            #expect(log.range(of: Data(ChatCommandService.tokenHash(token).utf8)) != nil)
            #expect(log.range(of: Data("correct horse battery".utf8)) == nil)
            #expect(log.range(of: Data("fay@example.com".utf8)) == nil, "the email is sealed")
        }
    }

    @Test func failedLoginsAreThrottledPerAccount() async throws {
        try await ChatLiveServer.run(loginThrottle: .init(perAccount: 3, perAddress: 100, window: .seconds(60))) { server in
            _ = try await server.client.signUp("gus@example.com")
            for _ in 0..<3 {
                #expect(try await server.client.send(.post, "/api/login/", json: #"{"email":"gus@example.com","password":"guess guess"}"#).status == .badRequest)
            }
            let refused = try await server.client.send(.post, "/api/login/", json: #"{"email":"gus@example.com","password":"correct horse battery"}"#)
            #expect(refused.status == .tooManyRequests)
            #expect(refused.errorCode == "throttled")
            #expect(Int(refused.headers[.retryAfter] ?? "") ?? 0 > 0)
            _ = try await server.client.signUp("hal@example.com")
            #expect(try await server.client.send(.post, "/api/login/", json: #"{"email":"hal@example.com","password":"correct horse battery"}"#).status == .ok)
        }
    }

    /// Beyond the contract: the export of everything held (no password hash), and deletion with the
    /// password entered again.
    @Test func aUserExportsTheirAccountAndDeletesItWithTheirPassword() async throws {
        try await ChatLiveServer.run { server in
            let token = try await server.client.newUser("ivy@example.com")
            #expect(try await server.client.chat(token, "what about quinces").status == .ok)
            let export = try await server.client.send(.get, "/api/account/export/", token: token)
            #expect(export.status == .ok)
            let account = try #require(export.json["account"] as? [String: Any])
            #expect((account["user"] as? [String: Any])?["email"] as? String == "ivy@example.com")
            #expect(account["session_count"] as? Int == 1)
            // The export's own instants as the contract writes every date.
            let events = try #require(export.json["events"] as? [[String: Any]])
            #expect(Self.isDjangoTime(export.json["exported_at"]) && !events.isEmpty && events.allSatisfy { Self.isDjangoTime($0["recorded_at"]) })
            #expect(export.text.contains("what about quinces") && !export.text.contains("pbkdf2_sha256"), "\(export.text.prefix(400))")
            #expect(try await server.client.send(.delete, "/api/account/", token: token, json: "{}").errorCode == "validation_error")
            #expect(try await server.client.send(.delete, "/api/account/", token: token, json: #"{"password":"not it at all"}"#).errorCode == "invalid_credentials")
            #expect(try await server.client.send(.delete, "/api/account/", token: token, json: #"{"password":"correct horse battery"}"#).status == .noContent)
            #expect(try await server.client.send(.get, "/api/chat/sessions/", token: token).status == .unauthorized)
            #expect(try await server.client.send(.post, "/api/login/", json: #"{"email":"ivy@example.com","password":"correct horse battery"}"#).status == .badRequest)
        }
    }

    @Test func missingAndMalformedCredentialsAre401InTheContractShape() async throws {
        try await ChatLiveServer.run { server in
            for headers in [[:], [.authorization: "Bearer abc"], [.authorization: "Token short"], [.authorization: "Token " + String(repeating: "a", count: 40)]] as [HTTPFields] {
                let reply = try await server.client.send(.get, "/api/chat/sessions/", headers: headers)
                #expect(reply.status == .unauthorized, "\(headers)")
                #expect(reply.isErrorShape)
                #expect(reply.headers[.wwwAuthenticate] == "Token")
            }
            #expect(try await server.client.send(.get, "/api/chat/sessions/").errorCode == "not_authenticated")
            #expect(try await server.client.send(.get, "/api/nowhere/").status == .notFound)
        }
    }
}

import HTTPTypes
