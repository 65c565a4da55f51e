import EventSourcing
import Foundation
import GRDB
import ReadModels

/// The engine's test product, the smallest that exercises it: users count into named tallies, with
/// a personal note. Engine tests run on it so that none depends on a real product.
public enum TallyEvent: Sendable, Equatable {
    case counted(Counted)
    case userErased(UserErased)
}

/// A user added `amount` to `tally`; `note` is theirs, sealed under their key.
public struct Counted: EventPayload {
    public static let typeName = "counted"
    public static let schemaVersion: UInt16 = 2
    public var tally: String
    public var userId: Int64
    public var amount: Int
    @Personal public var note: String?

    public init(tally: String, userId: Int64, amount: Int, note: String?) {
        self.tally = tally
        self.userId = userId
        self.amount = amount
        self.note = note
    }
}

/// Version 1 counted one at a time and had no note: read back as `Counted` of 1.
public struct CountedV1: EventPayload {
    public static let typeName = "counted"
    public static let schemaVersion: UInt16 = 1
    public var tally: String
    public var userId: Int64

    public init(tally: String, userId: Int64) {
        self.tally = tally
        self.userId = userId
    }
}

public enum TallyCatalog: PayloadCatalog {
    public typealias Event = TallyEvent
    public static let payloadTypes: PayloadTypes<TallyEvent> = [
        PayloadType(CountedV1.self) { .counted(Counted(tally: $0.tally, userId: $0.userId, amount: 1, note: nil)) },
        PayloadType(Counted.self) { .counted($0) },
        PayloadType(UserErased.self) { .userErased($0) },
    ]

    public static func payload(of event: TallyEvent) -> any EventPayload {
        switch event {
        case .counted(let counted): counted
        case .userErased(let erased): erased
        }
    }

    public static func actorUserId(of event: TallyEvent) -> Int64? {
        switch event {
        case .counted(let counted): counted.userId
        case .userErased(let erased): erased.initiator == .user ? erased.userId : nil
        }
    }

    public static func subjectUserIds(of event: TallyEvent) -> [Int64] {
        switch event {
        case .userErased(let erased) where erased.initiator != .user: [erased.userId]
        case .counted, .userErased: []
        }
    }

    public static let eventIdNamespace = "tally"
    public static func userErased(_ erasure: UserErased) -> TallyEvent { .userErased(erasure) }
    public static func erasure(in event: TallyEvent) -> UserErased? { if case .userErased(let erased) = event { erased } else { nil } }

    /// A count touches its user; an erasure, everything.
    public static func readScopes(of event: TallyEvent) -> ReadScopes {
        switch event {
        case .counted(let counted): .only([.user(counted.userId)])
        case .userErased: .everything
        }
    }
}

/// A tally's stream folded: its total, and the notes written to it.
public struct TallyState: EventFold {
    public typealias Event = TallyEvent
    public var total = 0
    public var notes: [String] = []

    public init() {}

    public mutating func evolve(_ event: TallyEvent) {
        switch event {
        case .counted(let counted):
            total += counted.amount
            if let note = counted.note { notes.append(note) }
        case .userErased: break
        }
    }

    public var retainedBytes: Int { MemoryLayout<Self>.size + heapBytes(of: notes) }
}

/// The read model `tally(name, total, counts)`; `failingAt` makes it refuse a tally of that name.
public struct TallyProjection: Projection {
    public let name = "tallies"
    public let version: Int
    public let tables = ["tally"]
    let failingAt: String?
    let failure: any Error & Sendable

    /// Throws `failure` for the tally `failingAt`.
    public init(version: Int = 1, failingAt: String? = nil, with failure: any Error & Sendable = Refused()) {
        self.version = version
        self.failingAt = failingAt
        self.failure = failure
    }

    public struct Refused: Error { public init() {} }

    public func createSchema(_ db: Database) throws {
        try db.create(table: "tally") { t in
            t.primaryKey("name", .text)
            t.column("total", .integer).notNull()
            t.column("counts", .integer).notNull()
        }
    }

    public func apply(_ recorded: Recorded<TallyEvent>, _ db: Database) throws {
        switch recorded.event {
        case .counted(let counted):
            if counted.tally == failingAt { throw failure }
            try db.execute(sql: """
                INSERT INTO tally (name, total, counts) VALUES (?, ?, 1)
                ON CONFLICT(name) DO UPDATE SET total = total + excluded.total, counts = counts + 1
                """, arguments: [counted.tally, counted.amount])
        case .userErased: break
        }
    }
}

/// Who counted what, with their note: a second read model, which an erasure empties of the user.
public struct NotesProjection: Projection {
    public let name = "tally-notes"
    public let version = 1
    public let tables = ["tallyNote"]
    /// An erasure's delete uses it: a bulk fold that defers it scans the table then.
    public let indexesForReads = ["tallyNoteByUser"]
    let failingFor: Int64?

    /// Refuses the counts of user `failingFor`.
    public init(failingFor userId: Int64? = nil) {
        failingFor = userId
    }

    public func createSchema(_ db: Database) throws {
        try db.create(table: "tallyNote") { t in
            t.primaryKey("position", .integer)
            t.column("userId", .integer).notNull()
            t.column("note", .text)
        }
        try db.create(index: "tallyNoteByUser", on: "tallyNote", columns: ["userId"])
    }

    public func apply(_ recorded: Recorded<TallyEvent>, _ db: Database) throws {
        switch recorded.event {
        case .counted(let counted):
            if counted.userId == failingFor { throw TallyProjection.Refused() }
            try db.execute(sql: "INSERT INTO tallyNote (position, userId, note) VALUES (?, ?, ?)", arguments: [recorded.position, counted.userId, counted.note])
        case .userErased(let erased):
            try db.execute(sql: "DELETE FROM tallyNote WHERE userId = ?", arguments: [erased.userId])
        }
    }
}

/// The engine's test product: the tally catalog and its two projections, for the engine's hosting
/// (stores, verify, time travel) tested without any real product.
public enum TallyProduct: EventSourcedProduct {
    public typealias Catalog = TallyCatalog
    public static let name = "tally"
    public static var projections: [any Projection<TallyEvent>] { [TallyProjection(), NotesProjection()] }
    public static func userStream(_ userId: Int64) -> String { "user-\(userId)" }
}
