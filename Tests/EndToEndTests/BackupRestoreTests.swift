import EventLog
import Foundation
import NIOConcurrencyHelpers
import TestSupport
import Testing

/// An operator's backup and restore, through the real binary: a backup taken while the server takes
/// writes restores a log identical to the original's prefix, whose read models, folded by the restore,
/// are identical to a clean rebuild.
@Suite(.timeLimit(.minutes(3))) struct BackupRestoreTests {
    @Test func aBackupTakenUnderWritesRestoresToIdenticalReadModels() async throws {
        let directory = try TemporaryDirectory()
        let live = directory.url.appendingPathComponent("live"), backup = directory.url.appendingPathComponent("backup")
        let restored = directory.url.appendingPathComponent("restored")
        let server = try await ServerProcess.demo(dataDirectory: live)
        let login = try await server.post("/auth/login", #"{"provider":"dev","user_identifier":"movielens-1"}"#)
        let token = try #require(login.json["access_token"] as? String)

        let acknowledged = NIOLockedValueBox(0)
        let writes = Task {
            var n = 0
            while !Task.isCancelled {
                n += 1
                if (try? await server.post("/movies/\(1 + n % 5)/rate", #"{"rating":\#(1 + n % 5)}"#, token: token))?.status == 200 {
                    acknowledged.withLockedValue { $0 += 1 }
                }
            }
        }
        let writing = try await SharedLogNodeTests.eventually(within: .seconds(30)) { acknowledged.withLockedValue { $0 } >= 5 }
        try #require(writing, "five ratings acknowledged before the backup")
        let backedUp = try await runNuvie(["backup", "--data-dir", live.path, backup.path])
        let acknowledgedByTheBackupsEnd = acknowledged.withLockedValue { $0 }
        // Under a running server, which would go on serving the log it has open: what it acknowledged would be lost.
        let underServer = try await runNuvie(["restore", "--data-dir", live.path, "--force", backup.path])
        #expect(underServer.status == 1 && underServer.output.contains("is serving") && !underServer.output.contains("Usage:"), "\(underServer.output)")
        // Nor an import: opening the read models beside the server removed the file a replay was folding into.
        let importBeside = try await runNuvie(["import", "movielens", "--data-dir", live.path, replayFixtures.appendingPathComponent("movielens-tiny").path])
        #expect(importBeside.status == 1 && importBeside.output.contains("is serving"), "\(importBeside.output)")
        // Writes go on after the backup, so the log the backup copied was not the last one written.
        let wentOn = try await SharedLogNodeTests.eventually(within: .seconds(30)) { acknowledged.withLockedValue { $0 } >= acknowledgedByTheBackupsEnd + 5 }
        #expect(wentOn, "five more ratings acknowledged after the backup")
        writes.cancel()
        await writes.value
        await server.stop()
        #expect(backedUp.status == 0, "\(backedUp.output)")
        #expect(try await runNuvie(["backup", "--data-dir", live.path, backup.path]).status != 0, "a backup never overwrites another")
        let typo = directory.url.appendingPathComponent("liev").path
        for command in [["backup", directory.url.appendingPathComponent("b2").path], ["replay"], ["erase", "--user", "1"], ["seal-log", "--into", directory.url.appendingPathComponent("s2").path]] {
            let mistyped = try await runNuvie(command + ["--data-dir", typo])
            #expect(mistyped.status == 1 && mistyped.output.contains("holds no event log") && !mistyped.output.contains("Usage:"), "\(command[0]) of nothing is refused: \(mistyped.output)")
            #expect(!FileManager.default.fileExists(atPath: typo), "\(command[0]) made the mistyped directory")
        }
        let notABackup = try await runNuvie(["restore", "--data-dir", typo, directory.url.appendingPathComponent("no-backup").path])
        #expect(notABackup.status == 1 && notABackup.output.contains("not a backup"), "\(notABackup.output)")
        #expect(!FileManager.default.fileExists(atPath: typo), "restore of no backup made the data directory")
        let noToken = try await runNuvie(["replay", "--server", "http://127.0.0.1:9", "--data-dir", typo])
        #expect(noToken.status == 1 && noToken.output.contains("no admin token") && noToken.output.contains("NUVIE_ADMIN_TOKEN_FILE"), "\(noToken.output)")

        let keyStore = live.appendingPathComponent("keys/keys.sqlite").path
        // Onto a machine installed and started once (ops/README.md): the empty key store its start made
        // gives way to the backed-up one (it was kept, and every sealed event failed to open).
        try firstStartKeyStore(in: restored)
        // A restore that fails while copying (here, on a key store that is not one) leaves the directory
        // as it was: the same command with the right key store then needs no --force.
        let notAKeyStore = directory.url.appendingPathComponent("not-a-key-store.sqlite")
        try Data("not a key store".utf8).write(to: notAKeyStore)
        let failed = try await runNuvie(["restore", "--data-dir", restored.path, "--key-store", notAKeyStore.path, backup.path])
        #expect(failed.status == 1 && !FileManager.default.fileExists(atPath: restored.appendingPathComponent("log").path), "\(failed.output)")
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: restored.appendingPathComponent("scratch").path)) ?? []).isEmpty)
        let restore = try await runNuvie(["restore", "--data-dir", restored.path, "--key-store", keyStore, backup.path])
        #expect(restore.status == 0, "\(restore.output)")
        #expect(
            try await runNuvie(["restore", "--data-dir", restored.path, "--key-store", keyStore, backup.path]).status != 0,
            "restore refuses a data dir that has a log"
        )
        let verify = try await runNuvie(["verify", "--data-dir", restored.path])
        #expect(verify.status == 0 && verify.output.contains("identical"), "\(verify.output)")
        // With a key store under the right master key but without the keys its events were sealed under,
        // the restore says its read models could not be folded (it said it had folded them).
        let elsewhere = directory.url.appendingPathComponent("elsewhere")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: live.appendingPathComponent("demo-master-key"), to: elsewhere.appendingPathComponent("demo-master-key"))
        try demoKeyStore(of: elsewhere).keys.close()
        let wrongKeys = try await runNuvie([
            "restore", "--data-dir", directory.url.appendingPathComponent("restored-2").path, "--key-store", elsewhere.appendingPathComponent("keys/keys.sqlite").path, backup.path,
        ])
        #expect(wrongKeys.status == 1 && wrongKeys.output.contains("could not be folded"), "\(wrongKeys.output)")
        // Every projection stopped there by an event none could open: verify names them, not "different positions".
        let stopped = try await runNuvie(["verify", "--data-dir", directory.url.appendingPathComponent("restored-2").path])
        #expect(stopped.status == 1 && stopped.output.contains("but stopped"), "\(stopped.output)")

        let original = try EventLog(configuration: .init(directory: live.appendingPathComponent("log")))
        defer { original.close() }
        let copy = try EventLog(configuration: .init(directory: restored.appendingPathComponent("log")))
        defer { copy.close() }
        #expect(copy.headPosition > 0 && copy.headPosition < original.headPosition, "the backup was taken while writes went on")
        // The manifest gives the copy's own head, not the backup process's older view of the log.
        let manifest = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: backup.appendingPathComponent("manifest.json"))) as? [String: Any])
        #expect(manifest["logHeadPosition"] as? Int == Int(copy.headPosition), "\(manifest)")
        #expect(restore.output.contains("position \(copy.headPosition)"), "\(restore.output)")
        #expect(try copy.read(from: 1, limit: .max) == original.read(from: 1, limit: Int(copy.headPosition)))
    }
}

/// Runs the built `nuvie` with `arguments`; its exit status and what it printed. `logLevel` is for the
/// commands that take `--log-level` (those with a data directory).
func runNuvie(_ arguments: [String], logLevel: Bool = true, environment: [String: String] = [:]) async throws -> (status: Int32, output: String) {
    try await runProduct("nuvie", arguments, logLevel: logLevel, environment: environment)
}

/// Runs a product's built binary, as `runNuvie` does.
func runProduct(
    _ executable: String, _ arguments: [String], logLevel: Bool = true, environment: [String: String] = [:]
) async throws -> (status: Int32, output: String) {
    try await runCommand(ServerProcess.binary(executable), arguments + (logLevel ? ["--log-level", "warning"] : []), environment: environment)
}

@Suite(.timeLimit(.minutes(3))) struct AsOfTests {
    /// Run while the server serves the same directory: both read the log, neither blocks the other.
    @Test func asOfAPositionOrAnInstantShowsTheUserAsTheyWere() async throws {
        let directory = try TemporaryDirectory()
        let data = directory.url.appendingPathComponent("data")
        let server = try await ServerProcess.demo(dataDirectory: data)
        let login = try await server.post("/auth/login", #"{"provider":"dev","user_identifier":"movielens-1"}"#)
        let token = try #require(login.json["access_token"] as? String)
        _ = try await server.post("/movies/5/rate", #"{"rating":2}"#, token: token)
        let before = try #require(try await server.get("/health").json["log_head_position"] as? Int)
        _ = try await server.post("/movies/5/rate", #"{"rating":5}"#, token: token)
        defer { server.stopWhenLeaving() }

        func asOf(_ arguments: [String]) async throws -> [String: Any]? {
            let run = try await runNuvie(["as-of", "--data-dir", data.path, "--user", "1"] + arguments)
            // The JSON on stdout, whatever stderr's progress line interleaves around it.
            guard let start = run.output.firstIndex(of: "{"), let end = run.output.lastIndex(of: "}") else { return nil }
            return try JSONSerialization.jsonObject(with: Data(run.output[start...end].utf8)) as? [String: Any]
        }
        func ratingOfFilm5(_ arguments: [String]) async throws -> Double? {
            let ratings = try await asOf(arguments)?["ratings"] as? [[String: Any]] ?? []
            return ratings.first { $0["movie_id"] as? Int == 5 }?["rating"] as? Double
        }
        #expect(try await ratingOfFilm5(["--position", "\(before)"]) == 2)
        #expect(try await ratingOfFilm5(["--time", "2999-01-01"]) == 5)
        #expect(try await ratingOfFilm5(["--time", "2001-01-01"]) == nil)
        // What we would have recommended then: films not rated at that point, each with its reasons.
        #expect(try await asOf(["--position", "\(before)"])?["recommendations"] == nil)
        let then = try #require(try await asOf(["--position", "\(before)", "--recommendations"])?["recommendations"] as? [[String: Any]])
        #expect(!then.isEmpty && !then.contains { $0["movie_id"] as? Int == 5 })
        #expect(then.allSatisfy { ($0["reasons"] as? [String])?.isEmpty == false && $0["ai_score"] is Int })
        #expect(try await runNuvie(["as-of", "--data-dir", data.path, "--position", "1", "--time", "2020-01-01"]).status != 0)
        // Read models kept from a later position would be folded on, not rebuilt: a used directory is refused.
        let reused = try await runNuvie(["as-of", "--data-dir", data.path, "--position", "1", "--output", data.path])
        #expect(reused.status != 0 && reused.output.contains("is not empty"), "\(reused.output)")
        #expect(try await runNuvie(["as-of", "--data-dir", data.path, "--position", "1", "--serve", "83000"]).status != 0)
        // Past the log's end is what the log holds, not how the command was called: no usage text.
        let pastTheEnd = try await runNuvie(["as-of", "--data-dir", data.path, "--position", "99999999", "--user", "1"])
        #expect(pastTheEnd.status == 1 && pastTheEnd.output.contains("the log ends at position") && !pastTheEnd.output.contains("Usage:"), "\(pastTheEnd.output)")

        let audit = try await runNuvie(["audit", "--data-dir", data.path, "--user", "1", "--format", "json"])
        let lines = audit.output.split(separator: "\n").filter { $0.hasPrefix("{") }
        let types = lines.compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["type"] as? String }
        #expect(audit.status == 0 && types.filter { $0 == "movie-rated" }.count == 4, "\(audit.output)")  // 2 imported + 2 here
        let recent = try await runNuvie(["audit", "--data-dir", data.path, "--user", "1", "--from", "2020-01-01"])
        let rated = recent.output.split(separator: "\n").filter { $0.contains("movie-rated") }
        #expect(rated.count == 2 && rated.allSatisfy { $0.split(separator: "\t")[3] == "1" }, "who did it, in its own column: \(recent.output)")
    }
}

extension AsOfTests {
    /// The whole API as it answered at a past position, beside the live server, refusing writes.
    @Test func asOfServesThePastReadOnlyBesideTheLiveServer() async throws {
        let directory = try TemporaryDirectory()
        let data = directory.url.appendingPathComponent("data")
        let live = try await ServerProcess.demo(dataDirectory: data)
        defer { live.stopWhenLeaving() }
        let signIn = #"{"provider":"dev","user_identifier":"movielens-1"}"#
        let token = try #require(try await live.post("/auth/login", signIn).json["access_token"] as? String)
        _ = try await live.post("/movies/5/rate", #"{"rating":2}"#, token: token)
        let before = try #require(try await live.get("/health").json["log_head_position"] as? Int)
        _ = try await live.post("/movies/5/rate", #"{"rating":5}"#, token: token)

        let past = try await ServerProcess.start(outputDirectory: directory.url) { port in
            ["as-of", "--data-dir", data.path, "--position", "\(before)", "--serve", "\(port)", "--log-level", "warning"]
        }
        defer { past.stopWhenLeaving() }
        #expect(try await past.get("/health").json["log_head_position"] as? Int == before)
        let pastToken = try #require(try await past.post("/auth/login", signIn).json["access_token"] as? String)
        #expect(try await past.get("/movies/5", token: pastToken).json["user_rating"] as? Int == 2)
        // The past state is served with the live directory's keys and demo secrets: a live sign-in holds there too.
        #expect(try await past.get("/movies/5", token: token).json["user_rating"] as? Int == 2)
        #expect(try await live.get("/movies/5", token: token).json["user_rating"] as? Int == 5)

        let refused = try await past.post("/movies/5/rate", #"{"rating":1}"#, token: pastToken)
        #expect(refused.status == 405 && (refused.json["error"] as? [String: Any])?["code"] as? String == "READ_ONLY")
        #expect(try await past.get("/health").json["log_head_position"] as? Int == before)
        #expect(try await live.get("/movies/5", token: token).json["user_rating"] as? Int == 5)

        // Deleting the account there is refused before anything is touched: the keys are the live ones.
        #expect(try await past.delete("/users/me", token: token).status == 405)
        let userId = try #require(try await live.get("/users/me", token: token).json["user_id"] as? Int)
        #expect(try demoKeyStore(of: data).isErased(Int64(userId)) == false, "the live user's key was destroyed")
        #expect(try await live.get("/movies/5", token: token).json["user_rating"] as? Int == 5)
    }
}

@Suite(.timeLimit(.minutes(3))) struct ReplayCommandTests {
    @Test func replayRebuildsOfflineAndDefersToARunningServer() async throws {
        let directory = try TemporaryDirectory()
        let data = directory.url.appendingPathComponent("data")
        let server = try await ServerProcess.demo(dataDirectory: data)
        let login = try await server.post("/auth/login", #"{"provider":"dev","user_identifier":"movielens-2"}"#)
        _ = try await server.post("/movies/3/rate", #"{"rating":4}"#, token: try #require(login.json["access_token"] as? String))

        let refused = try await runNuvie(["replay", "--data-dir", data.path])
        #expect(refused.status != 0 && refused.output.contains("--server"), "\(refused.output)")
        let online = try await runNuvie(["replay", "--data-dir", data.path, "--server", server.baseURL, "--projection", "users"])
        #expect(online.status == 0 && online.output.contains("swapped in by the server"), "\(online.output)")
        await server.stop()

        let offline = try await runNuvie(["replay", "--data-dir", data.path])
        #expect(offline.status == 0 && offline.output.contains("rebuilt"), "\(offline.output)")
        let verify = try await runNuvie(["verify", "--data-dir", data.path])
        #expect(verify.status == 0 && verify.output.contains("identical"), "\(verify.output)")
    }
}
