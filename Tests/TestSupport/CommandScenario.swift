import EventLog
import EventSourcing
import Foundation
import Testing

/// Given these events, when this command, then these events (or this refusal, and nothing recorded):
/// a real log in a temp dir, a real key store, and a product's command service over them. Every
/// product's command tests read this way.
public final class CommandScenario<Catalog: EventCatalog, Commands> {
    public let directory: TemporaryDirectory
    public let log: EventLog
    public let store: EventStore<Catalog>
    public let commands: Commands

    public init(_ makeCommands: (EventStore<Catalog>) throws -> Commands) throws {
        directory = try TemporaryDirectory()
        log = try EventLog(configuration: .init(directory: directory.url.appendingPathComponent("log"), initialMapSize: 1 << 20))
        store = EventStore(log: log, personalData: try testKeyStore(in: directory))
        commands = try makeCommands(store)
    }

    deinit { log.close() }

    /// Given these events, each on its stream.
    public func given(_ events: [(stream: String, event: Catalog.Event)]) async throws {
        for (stream, event) in events {
            _ = try await log.append(to: stream, expectedVersion: .any, events: [try store.newEvent(event)])
        }
    }

    /// When the command runs: the events it recorded, in order.
    public func when(_ command: (Commands) async throws -> Void) async throws -> [Catalog.Event] {
        let head = log.headPosition
        try await command(commands)
        return try log.read(from: head + 1, limit: .max).map { try store.decode($0).event }
    }

    /// When the command runs, it is refused with `expected`, and records nothing.
    public func whenRefused<E: Error & Equatable>(_ expected: E, _ command: (Commands) async throws -> Void) async throws {
        let head = log.headPosition
        await #expect(throws: expected) { try await command(self.commands) }
        #expect(log.headPosition == head)
    }
}
