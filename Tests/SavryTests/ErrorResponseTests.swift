import Foundation
import HTTPTypes
import JWTKit
import TestSupport
import Testing

/// Every error is `{"message": …}` with the contract's status.
@Suite(.timeLimit(.minutes(3))) struct ErrorResponseTests {
    static let minimal = #"{"name":"Toast","ingredients":[],"instructions":[]}"#

    @Test func badRequestsAre400NamingTheField() async throws {
        try await SavryLiveServer.run { server in
            let client = server.client
            let token = try await client.token("ana")
            let id = try await client.create(token, Self.minimal)
            let head = server.storage.log.headPosition
            let bodies: [(String, String?)] = [
                ("{", "Invalid JSON"), (#"{"name":"A","ingredients":[],"instructions":[],}"#, "Invalid JSON"), ("[]", "Invalid JSON"),
                (#"{"name":"A","name":"B","ingredients":[],"instructions":[]}"#, "twice"),
                (#"{"name":"A","ingredients":[],"instructions":[],"colour":"red"}"#, "colour"),
                (#"{"name":"A","ingredients":[],"instructions":[],"id":"x"}"#, "id"),
                (#"{"ingredients":[],"instructions":[]}"#, "name"),
                (#"{"name":null,"ingredients":[],"instructions":[]}"#, "name"),
                (#"{"name":"A","instructions":[]}"#, "ingredients"),
                (#"{"name":"A","ingredients":[]}"#, "instructions"),
                (#"{"name":5,"ingredients":[],"instructions":[]}"#, "name"),
                (#"{"name":"A","ingredients":"eggs","instructions":[]}"#, "ingredients"),
                (#"{"name":"A","ingredients":[{"name":"egg","colour":"brown"}],"instructions":[]}"#, "ingredients[0].colour"),
                (#"{"name":"A","ingredients":[{"quantity":"2"}],"instructions":[]}"#, "ingredients[0].name"),
                (#"{"name":"A","ingredients":[{"name":"egg","price":"1"}],"instructions":[]}"#, "ingredients[0].price"),
                (#"{"name":"A","ingredients":[],"instructions":[1]}"#, "instructions"),
                (#"{"name":"A","ingredients":[],"instructions":[],"prepTime":"10"}"#, "prepTime"),
                (#"{"name":"A","ingredients":[],"instructions":[],"servings":4.5}"#, "servings"),
                (#"{"name":"A","ingredients":[],"instructions":[],"prepTime":-1}"#, "prepTime"),
                (#"{"name":"A","ingredients":[],"instructions":[],"calories":1e9}"#, "calories"),
                (#"{"name":"A","ingredients":[],"instructions":[],"estimatedCost":-2}"#, "estimatedCost"),
                (#"{"name":"A","ingredients":[],"instructions":[],"isPublic":true}"#, "isPublic"),
                (#"{"name":"A","ingredients":[],"instructions":[],"isPublic":"no"}"#, "isPublic"),
                (#"{"name":"   ","ingredients":[],"instructions":[]}"#, "name"),
                (#"{"name":"A\u0001","ingredients":[],"instructions":[]}"#, "name"),
                (#"{"name":"A","ingredients":[],"instructions":[],"imageUrl":"javascript:alert(1)"}"#, "imageUrl"),
            ]
            for (body, mentions) in bodies {
                let reply = try await client.send(.post, "/api/app/recipes", token: token, body: body)
                #expect(reply.status == .badRequest && reply.isErrorShape, "\(body): \(reply.text)")
                if let mentions { #expect((reply.json["message"] as? String)?.contains(mentions) == true, "\(body): \(reply.text)") }
            }
            for (body, mentions) in [(#"{"name":null}"#, "name"), (#"{"ingredients":null}"#, "ingredients"), (#"{"bogus":1}"#, "bogus"), (#"{"prepTime":true}"#, "prepTime")] {
                let reply = try await client.send(.patch, "/api/app/recipes/\(id)", token: token, body: body)
                #expect(reply.status == .badRequest && reply.isErrorShape && (reply.json["message"] as? String)?.contains(mentions) == true, "\(body): \(reply.text)")
            }
            for query in ["limit=0", "limit=51", "limit=abc", "limit=2.0", "limit=%2B5", "limit=%205", "cursor=yesterday", "cursor=2025-12-31", "cursor=2025-13-01T00:00:00Z", "cursor=2025-12-31T00:00:00"] {
                let reply = try await client.send(.get, "/api/app/recipes?\(query)", token: token)
                #expect(reply.status == .badRequest && reply.isErrorShape, "\(query): \(reply.text)")
            }
            for query in ["limit=1", "limit=50", "cursor=2025-12-31T00:00:00Z", "cursor=2025-12-31T00:00:00.123456Z", "cursor=2025-12-31T02:00:00%2B02:00"] {
                #expect(try await client.send(.get, "/api/app/recipes?\(query)", token: token).status == .ok, "\(query)")
            }
            let wrongType = try await client.send(.post, "/api/app/recipes", token: token, body: Self.minimal, headers: [.contentType: "text/plain"])
            #expect(wrongType.status == .unsupportedMediaType && wrongType.isErrorShape)
            let tooLarge = try await client.send(.post, "/api/app/recipes", token: token, body: #"{"name":"\#(String(repeating: "a", count: 600_000))"}"#)
            #expect(tooLarge.status == .contentTooLarge && tooLarge.isErrorShape)
            #expect(server.storage.log.headPosition == head)
        }
    }

    @Test func missingGarbageExpiredAndStrangersTokensAre401() async throws {
        try await SavryLiveServer.run { server in
            let client = server.client
            let token = try await client.token("ana")
            let expired = try await server.tokens.issue(for: 1, now: Date().addingTimeInterval(-31 * 24 * 3600))
            let unregistered = try await server.tokens.issue(for: 99)
            let otherAlgorithm = try await JWTKeyCollection().add(hmac: HMACKey(from: SavryLiveServer.secret), digestAlgorithm: .sha384)
                .sign(TestClaims(sub: .init(value: "1"), exp: .init(value: Date().addingTimeInterval(3600))))
            // Correctly signed, with instants no whole second holds: refused, and the server lives on.
            let signed = await JWTKeyCollection().add(hmac: HMACKey(from: SavryLiveServer.secret), digestAlgorithm: .sha256)
            let farExpiry = try await signed.sign(TestClaims(sub: .init(value: "1"), exp: .init(value: Date(timeIntervalSince1970: 1e300))))
            let farIssue = try await signed.sign(LegacyClaims(
                sub: .init(value: "1"), iat: .init(value: Date(timeIntervalSince1970: 1e300)), exp: .init(value: Date().addingTimeInterval(3600))
            ))
            // Signed with Savry's secret, as another backend given the same one signs: its issuer, its
            // `use`, or not valid yet.
            let now = Date()
            let otherIssuer = try await signed.sign(ForeignClaims(sub: .init(value: "1"), iat: .init(value: now), exp: .init(value: now.addingTimeInterval(3600)), iss: "nuvie"))
            let otherUse = try await signed.sign(ForeignClaims(sub: .init(value: "1"), iat: .init(value: now), exp: .init(value: now.addingTimeInterval(3600)), use: "refresh"))
            let notYet = try await signed.sign(ForeignClaims(
                sub: .init(value: "1"), iat: .init(value: now), exp: .init(value: now.addingTimeInterval(3600)), nbf: .init(value: now.addingTimeInterval(600))
            ))
            for header: String? in [
                nil, "Bearer", "Bearer garbage", "Basic \(token)", "Bearer \(expired)", "Bearer \(unregistered)", "Bearer \(otherAlgorithm)", "Bearer \(token)x",
                "Bearer \(farExpiry)", "Bearer \(farIssue)", "Bearer \(otherIssuer)", "Bearer \(otherUse)", "Bearer \(notYet)",
                "Bearer \(token)=", "Bearer \(StrayBits.of(token))",
            ] {
                for (method, path) in [(HTTPRequest.Method.get, "/api/app/recipes"), (.get, "/api/app/recipes/abc"), (.post, "/api/app/recipes")] {
                    let reply = try await client.send(method, path, body: method == .post ? Self.minimal : nil, headers: header.map { [.authorization: $0] } ?? [:])
                    #expect(reply.status == .unauthorized && reply.isErrorShape, "\(header ?? "none") \(path): \(reply.text)")
                }
            }
            #expect(try await client.send(.get, "/api/app/recipes", headers: [.authorization: "bearer  \(token) "]).status == .ok)
        }
    }


    /// `DELETE /api/app/auth` ends the token it came with, and only that one; a token from before
    /// tokens had a `jti` is signed out by its issue time.
    @Test func signingOutEndsThatTokenOnly() async throws {
        try await SavryLiveServer.run { server in
            let client = server.client
            let phone = try await client.token("ana"), tablet = try await client.token("ana")
            #expect(phone != tablet)
            #expect(try await client.send(.delete, "/api/app/auth", token: phone).status == .noContent)
            let refused = try await client.send(.get, "/api/app/recipes", token: phone)
            #expect(refused.status == .unauthorized && refused.isErrorShape, "\(refused.text)")
            #expect(try await client.send(.delete, "/api/app/auth", token: phone).status == .unauthorized)
            #expect(try await client.send(.get, "/api/app/recipes", token: tablet).status == .ok)
            #expect(try await client.send(.delete, "/api/app/auth").status == .unauthorized)

            let userId = try #require(try await server.tokens.grant(from: tablet)?.userId)
            let legacy = try await JWTKeyCollection().add(hmac: HMACKey(from: SavryLiveServer.secret), digestAlgorithm: .sha256)
                .sign(LegacyClaims(sub: .init(value: "\(userId)"), iat: .init(value: Date()), exp: .init(value: Date().addingTimeInterval(3600))))
            #expect(try await client.send(.get, "/api/app/recipes", token: legacy).status == .ok)
            #expect(try await client.send(.delete, "/api/app/auth", token: legacy).status == .noContent)
            #expect(try await client.send(.get, "/api/app/recipes", token: legacy).status == .unauthorized)
            #expect(try await client.send(.get, "/api/app/recipes", token: tablet).status == .ok)
        }
    }

    @Test func anotherUsersRecipeIs403AndAMissingOne404() async throws {
        try await SavryLiveServer.run { server in
            let client = server.client
            let ana = try await client.token("ana")
            let ben = try await client.token("ben")
            let id = try await client.create(ana, Self.minimal)
            let head = server.storage.log.headPosition
            for (method, body) in [(HTTPRequest.Method.get, nil), (.patch, #"{"name":"Mine"}"#), (.delete, nil)] {
                let reply = try await client.send(method, "/api/app/recipes/\(id)", token: ben, body: body)
                #expect(reply.status == .forbidden && reply.isErrorShape, "\(method): \(reply.text)")
                for missing in ["00000000-0000-0000-0000-000000000000", "abc123", "NOT%20AN%20ID"] {
                    let reply = try await client.send(method, "/api/app/recipes/\(missing)", token: ana, body: body)
                    #expect(reply.status == .notFound && reply.isErrorShape, "\(method) \(missing): \(reply.text)")
                }
            }
            #expect(server.storage.log.headPosition == head)
            let long = try await client.send(.get, "/api/app/recipes/" + String(repeating: "x", count: 10_000), token: ana)
            #expect(long.status == .notFound && long.isErrorShape && long.text.count < 200, "\(long.text.prefix(200))")
            #expect((try await client.send(.get, "/api/app/recipes", token: ben).json["recipes"] as? [Any])?.isEmpty == true)
            #expect(try await client.send(.get, "/api/app/recipes/\(id)", token: ana).status == .ok)
        }
    }

    @Test func unknownRoutesAndMethodsAreTheSameShape() async throws {
        try await SavryLiveServer.run { server in
            let token = try await server.client.token("ana")
            let answers: [(HTTPRequest.Method, String, HTTPResponse.Status)] = [
                (.get, "/", .notFound), (.get, "/api/app/nothing", .notFound), (.put, "/api/app/recipes/x", .methodNotAllowed),
                (.get, "/api/app/auth", .methodNotAllowed),
            ]
            for (method, path, status) in answers {
                let reply = try await server.client.send(method, path, token: token)
                #expect(reply.status == status && reply.isErrorShape, "\(method) \(path): \(reply.text)")
                #expect(reply.headers[.requestId] != nil)
            }
        }
    }
}

struct TestClaims: JWTPayload {
    var sub: SubjectClaim
    var exp: ExpirationClaim
    func verify(using algorithm: some JWTAlgorithm) async throws {}
}

/// Claims Savry never issues, or not valid yet.
struct ForeignClaims: JWTPayload {
    var sub: SubjectClaim
    var iat: IssuedAtClaim
    var exp: ExpirationClaim
    var iss: String?
    var use: String?
    var nbf: NotBeforeClaim?
    func verify(using algorithm: some JWTAlgorithm) async throws {}
}

/// A token as Savry issued them before sign-out: no `jti`.
struct LegacyClaims: JWTPayload {
    var sub: SubjectClaim
    var iat: IssuedAtClaim
    var exp: ExpirationClaim
    func verify(using algorithm: some JWTAlgorithm) async throws {}
}
