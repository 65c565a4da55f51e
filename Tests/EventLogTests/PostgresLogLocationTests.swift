import PostgresLog
import TestSupport
import Testing

/// The log's URL as libpq reads it: a host list, and which of its servers will do.
@Suite struct PostgresLogLocationTests {
    @Test func oneServerIsTheFirstThatAnswers() throws {
        let place = try PostgresLogLocation(url: "postgres://ana:secret@db.example:6432/savry?sslmode=disable")
        #expect(place.servers.map(\.description) == ["db.example:6432"])
        #expect(!place.needsWritable)
        #expect(place.description == "postgres://ana@db.example:6432/savry")
        #expect(place.connectTimeout == .seconds(10))
    }

    @Test func connectTimeoutIsHowLongAServerHasToSayWhatItIs() async throws {
        #expect(try PostgresLogLocation(url: "postgres://h1,h2/db?connect_timeout=30&target_session_attrs=read-write").connectTimeout == .seconds(30))
        let hanging = try await SilentServer()
        let started = ContinuousClock.now
        let refusal = await #expect(throws: PostgresLogError.self) {
            try await PostgresSharedLog(url: "postgres://ana@127.0.0.1:\(hanging.port)/savry?sslmode=disable&connect_timeout=1", product: "savry")
        }
        #expect(ContinuousClock.now - started < .seconds(8), "given up after connect_timeout's 1 s, not the default 10")
        await hanging.stop()
        // Whichever gives up first: the node's deadline for the whole check, or postgres-nio's for the connection.
        let said = refusal.map { "\($0)" } ?? ""
        #expect(said.contains("127.0.0.1:\(hanging.port): ") && (said.contains("no answer within 1.0 seconds (connect_timeout)") || said.contains("Connect timeout (1 s)")), "\(said)")
    }

    @Test func aHostListWithReadWriteNeedsTheServerThatTakesWrites() throws {
        let place = try PostgresLogLocation(url: "postgresql://ana:s3cret@10.0.0.1:5433,db-2,[::1]:5434/news?target_session_attrs=read-write&sslmode=disable")
        #expect(place.servers.map(\.host) == ["10.0.0.1", "db-2", "::1"])
        #expect(place.servers.map(\.port) == [5433, 5432, 5434])
        #expect(place.needsWritable)
        #expect(place.description == "postgres://ana@10.0.0.1:5433,db-2:5432,[::1]:5434/news")
        #expect(!place.description.contains("s3cret"))
        #expect(try PostgresLogLocation(url: "postgres://h1,h2/db?target_session_attrs=primary").needsWritable)
        // Several servers mean a primary and its standbys: the one that takes writes, unless told otherwise,
        // and never the first that answers, which may be a standby (every write fails) or an old primary.
        #expect(try PostgresLogLocation(url: "postgres://h1,h2/db").needsWritable)
        #expect(try !PostgresLogLocation(url: "postgres://h1/db").needsWritable)
    }

    @Test(arguments: [
        "mysql://somewhere/db", "postgres://host-only", "postgres://h/db?sslmode=verify-full", "postgres://h1,,h2/db",
        "postgres://h1:0/db", "postgres://h1:port/db", "postgres:///db", "postgres://h1,h2/db?target_session_attrs=standby",
        "postgres://h1,h2/db?target_session_attrs=any",
        "postgres://h/db?connect_timeout=0", "postgres://h/db?connect_timeout=-5", "postgres://h/db?connect_timeout=2.5",
        // libpq's own parameters, which this server would otherwise leave out and connect elsewhere.
        "postgres://h/db?sslmode=disable&port=19200", "postgres://h/db?host=other",
    ])
    func aBadURLIsRefusedWithItsReason(url: String) {
        #expect(throws: PostgresLogError.self) { try PostgresLogLocation(url: url) }
    }
}
