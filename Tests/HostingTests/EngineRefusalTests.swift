import EventLog
import EventSourcing
import Foundation
@testable import HTTPServing
import Hummingbird
import NIOCore
import NIOHTTP1
import PersonalData
import ProductHosting
import ReadModels
import Testing

/// Given an error the engine raises on a request path, then the refusal every product answers.
@Test(arguments: [
    (EventLogError.wrongExpectedVersion(streamId: "s", expected: .noStream, actual: 1), EngineRefusal.conflict),
    (CommandError.tooMuchContention, .conflict),
    (EventLogError.partialDuplicate(eventIds: [UUID()]), .idempotencyKeyReused),
    (EventLogError.eventIdReused(eventId: UUID(), position: 3), .idempotencyKeyReused),
    (InvalidIdempotencyKey(), .invalidIdempotencyKey("Idempotency-Key must be 1–255 characters")),
    (StorageFullError(store: .eventLog, path: "/data/log", cause: "ENOSPC"), .storageFull),
    (EventLogError.readOnly, .readOnly),
    (EventLogError.closed, .shuttingDown),
    (ReadModelsBehind(position: 12), .readModelsBehind(position: 12)),
    (OperatorRequestError.userNotFound("no user 4"), .operatorRequest(.userNotFound("no user 4"))),
    (BodyTooLarge(limit: 10), .bodyTooLarge(limit: 10)),
    (NIOTooManyBytesError(maxBytes: 10), .bodyTooLarge(limit: nil)),
    (HTTPParserError.invalidChunkSize, .malformedHTTP),
    (HTTPError(.notFound), .noSuchRoute),
    (HTTPError(.methodNotAllowed), .methodNotAllowed),
    (HTTPError(.contentTooLarge), .bodyTooLarge(limit: nil)),
    (HTTPError(.unauthorized, message: "sign in"), .otherClientError(.unauthorized, message: "sign in")),
    (EngineRefusal.readOnly, .readOnly),
    // A request whose user was erased while it ran (Chat's send-chat racing the account's deletion was a 500).
    (KeyStore.Failure.keyDestroyed(userId: 7), .otherClientError(.unauthorized, message: "The account this request writes for was deleted while it ran; nothing more is saved for it")),
] as [(any Error & Sendable, EngineRefusal)])
func engineErrorsAreRefusals(error: any Error & Sendable, refusal: EngineRefusal) {
    #expect(EngineRefusal(error) == refusal)
}

/// Errors that are bugs stay bugs: a product answers them as its internal error, and logs them.
@Test(arguments: [
    EventLogError.corruptRecord(position: 1, reason: "bad"), EventLogError.invalidAppend("empty"),
    HTTPError(.internalServerError), CancellationError(),
] as [any Error & Sendable])
func bugsAreNoRefusals(error: any Error & Sendable) {
    #expect(EngineRefusal(error) == nil)
}

/// Every refusal's answer is one a client can act on: a 4xx, or a 503 that says when to retry; a
/// code a program can switch on; a title and a sentence a person can read.
@Test(arguments: EngineRefusal.examples)
func everyRefusalSaysWhatToDo(refusal: EngineRefusal) {
    #expect((400..<500).contains(refusal.status.code) || refusal.status == .serviceUnavailable)
    #expect(refusal.status != .serviceUnavailable || refusal.headers[.retryAfter] != nil, "a 503 says when to retry")
    #expect(refusal.code.allSatisfy { $0.isLowercase || $0 == "_" } && !refusal.code.isEmpty)
    #expect(!refusal.title.isEmpty && !refusal.message.isEmpty)
}

@Test func aMalformedRequestIsTheConnectionsLast() {
    #expect(EngineRefusal.malformedHTTP.headers[.connection] == "close")
    #expect(EngineRefusal.bodyTooLarge(limit: 64 << 10).message.hasSuffix("at most 64 KB"))
}
