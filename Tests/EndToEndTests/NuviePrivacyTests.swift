import EventLog
import EventSourcing
import Foundation
import NuvieDomain
import TestSupport
import Testing

/// Account deletion by crypto-shredding, through the real binary: a user with a profile, a review,
/// a friend and a session deletes their account; no read of any kind shows their personal data
/// again, the log's bytes never held it in clear, and a backup taken before the deletion, restored,
/// cannot read it either.
@Suite(.timeLimit(.minutes(4))) struct NuviePrivacyTests {
    static let secrets = ["Quixotic Zebra", "Marmalade-Seventeen", "Periwinkle-Ninety", "ana-privacy-7"]

    @Test func aDeletedAccountLeavesNothingPersonalInAnyReadTheLogOrAnOldBackup() async throws {
        let directory = try TemporaryDirectory()
        let data = directory.url.appendingPathComponent("data"), backup = directory.url.appendingPathComponent("backup")
        var server = try await ServerProcess.demo(dataDirectory: data)
        let admin = ["X-Admin-Token": try String(contentsOf: data.appendingPathComponent("admin-token"), encoding: .utf8)]

        let signIn = #"{"provider":"dev","user_identifier":"ana-privacy-7","name":"Quixotic Zebra"}"#
        let ana = try await server.post("/auth/login", signIn)
        let token = try #require(ana.json["access_token"] as? String), refresh = try #require(ana.json["refresh_token"] as? String)
        let anaId = try #require((ana.json["user"] as? [String: Any])?["user_id"] as? Int)
        #expect(try await server.patch("/users/me", #"{"bio":"Marmalade-Seventeen"}"#, token: token).status == 200)
        #expect(try await server.post("/movies/1/rate", #"{"rating":5,"comment":"Periwinkle-Ninety","is_review":true}"#, token: token).status == 200)
        let friend = try #require(try await server.post("/auth/login", #"{"provider":"dev","user_identifier":"movielens-1"}"#).json["access_token"] as? String)
        #expect(try await server.post("/friends/requests", #"{"user_id":\#(anaId)}"#, token: friend).status == 201)
        #expect(try await server.post("/friends/requests/1/accept", "{}", token: token).status == 200)
        #expect(try await friendsOf(server, friend).contains(anaId))

        let export = try await server.get("/users/me/export", token: token)
        #expect(export.status == 200 && export.headers["content-type"]?.hasPrefix("application/json") == true)
        for secret in Self.secrets.prefix(3) { #expect(export.text.contains(secret), "the export holds \(secret), decrypted") }
        #expect((export.json["events"] as? [[String: Any]])?.contains { $0["type"] as? String == "movie-rated" } == true)
        try expectNoneInClear(in: data, "while the account lives")

        #expect(try await runNuvie(["backup", "--data-dir", data.path, backup.path]).status == 0)
        let beforeDeletion = try #require(try await server.get("/health").json["log_head_position"] as? Int)
        #expect(try await server.delete("/users/me", token: token).status == 204)
        // The past is read with today's key store: as of before the deletion, nothing personal either.
        let past = try await runNuvie(["as-of", "--data-dir", data.path, "--position", "\(beforeDeletion)", "--user", "\(anaId)"])
        #expect(past.status == 0 && past.output.contains("\"ratings\""), "\(past.output)")
        for secret in Self.secrets { #expect(!past.output.contains(secret), "\(secret) as of before the deletion") }

        #expect(try await server.get("/users/me", token: token).status == 401, "the access token is dead")
        #expect(try await server.post("/auth/refresh", #"{"refresh_token":"\#(refresh)"}"#).status == 401, "and the refresh token")
        #expect(try await server.delete("/users/me", token: token).status == 401)
        try await expectErased(anaId, on: server, friendToken: friend, admin: admin)
        try expectNoneInClear(in: data, "after the deletion")

        let again = try await server.post("/auth/login", signIn)
        let newId = try #require((again.json["user"] as? [String: Any])?["user_id"] as? Int)
        #expect(newId != anaId, "signing in again is a new, empty account")
        #expect(try await server.post("/admin/users/\(anaId)/erase", "{}", headers: admin).status == 409)

        try await PersonalDataScan.replay(server, admin: admin)
        try await expectErased(anaId, on: server, friendToken: friend, admin: admin)
        await server.stop()
        let verify = try await runNuvie(["verify", "--data-dir", data.path])
        #expect(verify.status == 0 && verify.output.contains("identical"), "\(verify.output)")
        let leftInScratch = try FileManager.default.contentsOfDirectory(atPath: data.appendingPathComponent("scratch").path)
        #expect(leftInScratch.isEmpty, "as-of and verify remove their copies of the read models: \(leftInScratch)")
        let audit = try await runNuvie(["audit", "--data-dir", data.path, "--user", "\(anaId)", "--format", "json"])
        #expect(audit.output.contains("user-erased") && !Self.secrets.contains { audit.output.contains($0) }, "\(audit.output)")

        // A backup from before the deletion, restored with the newest key store (it has the erasure):
        // the user's fields stay sealed, and the first start records the erasure again.
        let restored = directory.url.appendingPathComponent("restored")
        #expect(try await runNuvie(["restore", "--data-dir", restored.path, backup.path]).status != 0, "no key store, no restore")
        let keyStore = data.appendingPathComponent("keys/keys.sqlite").path
        let restore = try await runNuvie(["restore", "--data-dir", restored.path, "--key-store", keyStore, backup.path])
        #expect(restore.status == 0, "\(restore.output)")
        server = try await ServerProcess.demo(dataDirectory: restored)
        defer { server.stopWhenLeaving() }
        let friendAgain = try #require(try await server.post("/auth/login", #"{"provider":"dev","user_identifier":"movielens-1"}"#).json["access_token"] as? String)
        let restoredAdmin = ["X-Admin-Token": try String(contentsOf: restored.appendingPathComponent("admin-token"), encoding: .utf8)]
        try await expectErased(anaId, on: server, friendToken: friendAgain, admin: restoredAdmin)
        // …and the backup's own log, before the deletion, holds nothing it could show without the key.
        try expectNoneInClear(in: backup, "in the backup")
    }

    private func friendsOf(_ server: ServerProcess, _ token: String) async throws -> [Int] {
        (try await server.get("/friends", token: token).json["friends"] as? [[String: Any]] ?? []).compactMap { $0["user_id"] as? Int }
    }

    private func expectErased(_ userId: Int, on server: ServerProcess, friendToken: String, admin: [String: String]) async throws {
        #expect(try await server.get("/users/\(userId)", token: friendToken).status == 404)
        #expect(try await !friendsOf(server, friendToken).contains(userId), "the friendship ended")
        let reviews = try await server.get("/movies/1/reviews", token: friendToken)
        let feed = try await server.get("/feed/activities", token: friendToken)
        let audit = try await server.get("/admin/users/\(userId)/audit?limit=100", headers: admin)
        #expect(audit.text.contains("user-erased"))
        for reply in [reviews, feed, audit] {
            #expect(reply.status == 200)
            for secret in Self.secrets { #expect(!reply.text.contains(secret), "\(secret) shown after erasure: \(reply.text.prefix(300))") }
        }
    }

    /// The log file's bytes hold none of the personal values, sealed or not.
    private func expectNoneInClear(in dataDirectory: URL, _ when: String) throws {
        let bytes = try Data(contentsOf: dataDirectory.appendingPathComponent("log/data.mdb"))
        for secret in Self.secrets {
            #expect(bytes.range(of: Data(secret.utf8)) == nil, "\(secret) in clear in the log \(when)")
        }
    }
}

@Suite(.timeLimit(.minutes(3))) struct LogSealingTests {
    /// A log written before fields were sealed: the upgrade copies it with every position kept, no
    /// personal value left in clear, and read models that fold the same.
    @Test func sealingALogWrittenInClearKeepsPositionsAndFoldsTheSame() async throws {
        let directory = try TemporaryDirectory()
        let old = directory.url.appendingPathComponent("old"), new = directory.url.appendingPathComponent("new")
        let log = try EventLog(configuration: .init(directory: old.appendingPathComponent("log")))
        for line in try String(contentsOf: replayFixtures.appendingPathComponent("rating-review-like.jsonl"), encoding: .utf8).split(separator: "\n") {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let payload = try JSONSerialization.data(withJSONObject: try #require(object["payload"]), options: [.sortedKeys])
            let type = try #require(object["type"] as? String), version = UInt16(try #require(object["schema_version"] as? Int))
            let event = try NuvieCatalog.decode(type: type, schemaVersion: version, payload: payload, with: WithheldPersonalData().decoder(owner: 0))
            _ = try await log.append(to: try #require(object["stream"] as? String), expectedVersion: .any, events: [NewEvent(
                type: type, schemaVersion: version, actorUserId: event.actorUserId, userIds: event.subjectUserIds,
                recordedAt: try Date(try #require(object["recorded_at"] as? String), strategy: .iso8601), payload: payload
            )])
        }
        // Sarah (user 2, her identity in a legacy stream) erased, then signed up again as user 9: a claim
        // in the hashed stream of the same identity, which the legacy one is renamed to.
        let again = SignInIdentity(provider: "dev", subject: "sarah")
        _ = try await log.append(to: again.stream, expectedVersion: .noStream, events: [NewEvent(
            type: "identity-claimed", actorUserId: 9, payload: Data(#"{"provider":"dev","subject":"sarah","userId":9}"#.utf8)
        )])
        let head = log.headPosition
        log.close()
        try Data().write(to: old.appendingPathComponent("demo-mode"))
        // Copies of the old log or its read models: the console's backups, a command's scratch, a cache.
        let copiesInClear = ["backups/20240101T000000Z/log", "scratch/1-verify-0a1b2c3d", "cache"]
        for path in copiesInClear {
            let copy = old.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: copy, withIntermediateDirectories: true)
            try Data("Sarah Chen".utf8).write(to: copy.appendingPathComponent("data"))
        }
        let clear = try Data(contentsOf: old.appendingPathComponent("log/data.mdb"))
        #expect(clear.range(of: Data("Sarah Chen".utf8)) != nil && clear.range(of: Data("identity-dev-sarah".utf8)) != nil, "the old log is in clear")

        let sealed = try await runNuvie(["seal-log", "--data-dir", old.path, "--into", new.path])
        #expect(sealed.status == 0 && sealed.output.contains("identical"), "\(sealed.output)")
        for path in copiesInClear {
            #expect(!FileManager.default.fileExists(atPath: new.appendingPathComponent(path).path), "\(path) copied into the sealed directory")
        }
        #expect(FileManager.default.fileExists(atPath: new.appendingPathComponent("demo-mode").path))
        let bytes = try Data(contentsOf: new.appendingPathComponent("log/data.mdb"))
        for secret in ["Sarah Chen", "David Park", "Mind-blowing", "Still great on a rewatch", "identity-dev-sarah"] {
            #expect(bytes.range(of: Data(secret.utf8)) == nil, "\(secret) in clear after sealing")
        }
        let copy = try EventLog(configuration: .init(directory: new.appendingPathComponent("log")))
        defer { copy.close() }
        let original = try EventLog(configuration: .init(directory: old.appendingPathComponent("log"), readOnly: true))
        defer { original.close() }
        #expect(copy.headPosition == head)
        for (a, b) in zip(try copy.read(from: 1, limit: .max), try original.read(from: 1, limit: .max)) {
            #expect(a.position == b.position && a.id == b.id && a.recordedAt == b.recordedAt && a.actorUserId == b.actorUserId)
        }
        #expect(try copy.readStream(again.stream).map(\.streamVersion) == [1, 2], "the two claims, in one stream")
        let verify = try await runNuvie(["verify", "--data-dir", new.path])
        #expect(verify.status == 0 && verify.output.contains("identical"), "\(verify.output)")
    }
}
