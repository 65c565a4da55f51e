import NuvieCommands
import NuvieDomain
import EventLog
import EventSourcing
import Foundation
import TestSupport
import Testing

/// Given these events, when this command, then these events: a real log in a temp dir and the
/// command service over it.
final class CommandScenario {
    let directory: TemporaryDirectory
    let log: EventLog
    let store: NuvieStore
    let commands: NuvieCommandService

    init() throws {
        directory = try TemporaryDirectory()
        log = try EventLog(configuration: .init(directory: directory.url.appendingPathComponent("log"), initialMapSize: 1 << 20))
        store = NuvieStore(log: log, personalData: try testKeyStore(in: directory))
        commands = NuvieCommandService(store: store)
    }

    deinit { log.close() }

    /// Given these events, each on its stream.
    func given(_ events: [(stream: String, event: NuvieEvent)]) async throws {
        for (stream, event) in events {
            _ = try await log.append(to: stream, expectedVersion: .any, events: [try store.newEvent(event)])
        }
    }

    /// Given users 1…n registered, and the films with these ids in the catalog.
    func given(users: Int64, films: [Int64] = []) async throws {
        try await given((1...users).map { (NuvieStreams.user($0), .userRegistered(UserRegistered(userId: $0, name: "User \($0)", email: nil, avatarUrl: nil, provider: .dev))) })
        try await given(films.map { (NuvieStreams.movie($0), .movieAdded(MovieAdded(movieId: $0, title: "Film \($0)", genres: ["Drama"], year: 2000, tmdbId: nil, imdbId: nil))) })
    }

    /// When the command runs: the events it recorded, in order.
    func when(_ command: (NuvieCommandService) async throws -> Void) async throws -> [NuvieEvent] {
        let head = log.headPosition
        try await command(commands)
        return try log.read(from: head + 1, limit: .max).map { try store.decode($0).event }
    }

    /// When the command runs, it is refused with `expected`, and records nothing.
    func whenRefused<E: Error & Equatable>(_ expected: E, _ command: (NuvieCommandService) async throws -> Void) async throws {
        let head = log.headPosition
        await #expect(throws: expected) { try await command(self.commands) }
        #expect(log.headPosition == head)
    }
}
