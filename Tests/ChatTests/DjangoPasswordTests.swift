import ChatCommands
import ChatDomain
import ReadModels
import Testing

/// Passwords in Django's own format, checked against hashes Django's algorithm made.
@Suite struct DjangoPasswordTests {
    /// `django.contrib.auth.hashers.PBKDF2PasswordHasher().encode(password, salt, iterations)`, computed
    /// with Python's `hashlib.pbkdf2_hmac('sha256', …)`, as Django does.
    static let djangoMade = [
        ("password123", "pbkdf2_sha256$1000$seasalt$DKtn4wN1JA5g5IiTPMBbOfQEYX4cfOdbEPpqC26lBfU="),
        ("lètmein", "pbkdf2_sha256$260000$seasalt$YlZ2Vggtqdc61YjArZuoApoBh9JNGYoDRBUGu6tcJQo="),
    ]

    @Test func hashesDjangoMadeCheckOut() {
        for (password, hash) in Self.djangoMade {
            #expect(DjangoPassword.verify(password, against: hash))
            #expect(!DjangoPassword.verify(password + "x", against: hash))
        }
    }

    @Test func hashesMadeHereAreDjangosFormatAtTheConfiguredCount() async throws {
        #expect(try DjangoPassword.encode("password123", salt: "seasalt", iterations: 1000) == Self.djangoMade[0].1)
        let hash = try DjangoPassword(iterations: 1_000).hash("s3cret-pass")
        let parts = hash.split(separator: "$")
        #expect(parts.count == 4 && parts[0] == "pbkdf2_sha256" && parts[1] == "1000" && parts[2].count == 22)
        #expect(DjangoPassword.verify("s3cret-pass", against: hash))
        // OWASP's count takes seconds in a debug build: off the shared pool, as the server does it.
        #expect(try await BlockingWork.run { try DjangoPassword().hash("x") }.hasPrefix("pbkdf2_sha256$600000$"))
    }

    @Test func otherHashersAndDamagedHashesMatchNothing() {
        for hash in ["argon2$argon2id$v=19$m=102400,t=2,p=8$c2FsdA$aGFzaA", "!unusable", "pbkdf2_sha256$x$salt$hash", "pbkdf2_sha256$1000$seasalt$short", ""] {
            #expect(!DjangoPassword.verify("password123", against: hash))
            #expect(!DjangoPassword.isSupported(hash))
        }
    }

    @Test func anAccountImportedFromDjangoLogsInWithItsPassword() async throws {
        try await ChatLiveServer.run { server in
            let imported = try await server.storage.commands.importAccount(
                email: "Old.User@Example.com", passwordHash: Self.djangoMade[1].1, username: "olduser", firstName: "Old", lastName: "User", dateJoined: nil
            )
            #expect(imported != nil)
            #expect(try await server.storage.commands.importAccount(email: "old.user@example.com", passwordHash: Self.djangoMade[0].1, username: nil, firstName: nil, lastName: nil, dateJoined: nil) == nil)
            try await Task.sleep(for: .milliseconds(50))
            let login = try await server.client.send(.post, "/api/login/", json: #"{"email":"old.user@example.com","password":"lètmein"}"#)
            #expect(login.status == .ok, "\(login.text)")
            #expect(login.json["username"] as? String == "olduser")
        }
    }

    /// A hash of fewer iterations than new ones get is replaced at the first login that proves the
    /// password, once, and only by a right password.
    @Test func anImportedHashOfFewerIterationsIsStrengthenedAtLogin() async throws {
        try await ChatLiveServer.run { server in
            let commands = server.storage.commands
            let weak = try DjangoPassword.encode("old password", salt: "seasalt", iterations: 10)
            let imported = try #require(try await commands.importAccount(
                email: "weak@example.com", passwordHash: weak, username: "weak", firstName: nil, lastName: nil, dateJoined: nil
            ))
            let wrong = try await server.client.send(.post, "/api/login/", json: #"{"email":"weak@example.com","password":"not it"}"#)
            #expect(wrong.status == .badRequest)
            #expect(try commands.account(imported)?.passwordHash == weak, "a wrong password changes nothing")

            for _ in 0..<2 {
                let login = try await server.client.send(.post, "/api/login/", json: #"{"email":"weak@example.com","password":"old password"}"#)
                #expect(login.status == .ok, "\(login.text)")
            }
            let stronger = try #require(try commands.account(imported)?.passwordHash)
            #expect(DjangoPassword.iterations(of: stronger) == ChatStorage.passwords.iterations)
            #expect(DjangoPassword.verify("old password", against: stronger))
            #expect(try server.storage.eventTypes().filter { $0 == PasswordRehashed.typeName }.count == 1)
        }
    }
}
