import EventSourcing
import ReadModels
import TestSupport
import Testing

/// Answers remembered by the scope they were read from: a fold that touches the scope makes them
/// stale, a fold that touches only other scopes leaves them standing (the tally product's counts
/// touch their user; an erasure touches everything).
@Suite struct RememberedReadsTests {
    /// Counts the reads that reached the database: a remembered answer is the read number it came from.
    final class Reads {
        let remembered: RememberedReads<Int64, Int>
        var count = 0

        init(_ models: TallyReadModels) {
            remembered = RememberedReads(revision: ReadModelRevision(runner: models.runner), capacity: 8)
        }

        func answer(for user: Int64, scoped: Bool = true) -> Int? {
            remembered.value(user, scope: scoped ? .user(user) : nil) {
                count += 1
                return count
            }
        }
    }

    @Test func anAnswerHoldsUntilAFoldTouchesItsScope() async throws {
        let models = try TallyReadModels()
        try await models.given([("cups", 1, 1)])
        _ = try models.runner.catchUp()
        let reads = Reads(models)
        #expect(reads.answer(for: 1) == 1)
        #expect(reads.answer(for: 1) == 1)

        try await models.given([("cups", 2, 1), ("plates", 3, 4)])
        _ = try models.runner.catchUp()
        #expect(reads.answer(for: 1) == 1, "folds that touched users 2 and 3 only")

        try await models.given([("plates", 1, 2)])
        _ = try models.runner.catchUp()
        #expect(reads.answer(for: 1) == 2, "user 1 counted again: read anew")
        #expect(reads.answer(for: 1) == 2)
    }

    /// Scopes that only reading finds out: an answer over users 1 and 2 holds past a fold of user 3's
    /// and not past one of user 2's.
    @Test func anAnswerHoldsUntilAFoldTouchesAnyScopeItWasReadFrom() async throws {
        let models = try TallyReadModels()
        try await models.given([("cups", 1, 1)])
        _ = try models.runner.catchUp()
        let reads = Reads(models)
        func answer() -> Int {
            reads.remembered.value(1, readingScopes: {
                reads.count += 1
                return (reads.count, ReadScopeSet([.user(1), .user(2)]))
            })
        }
        #expect(answer() == 1)
        try await models.given([("cups", 3, 1)])
        _ = try models.runner.catchUp()
        #expect(answer() == 1)
        try await models.given([("cups", 2, 1)])
        _ = try models.runner.catchUp()
        #expect(answer() == 2)
    }

    @Test func anAnswerWithoutAScopeHoldsOnlyWhileNothingIsFolded() async throws {
        let models = try TallyReadModels()
        try await models.given([("cups", 1, 1)])
        _ = try models.runner.catchUp()
        let reads = Reads(models)
        #expect(reads.answer(for: 1, scoped: false) == 1)
        #expect(reads.answer(for: 1, scoped: false) == 1)
        try await models.given([("cups", 2, 1)])
        _ = try models.runner.catchUp()
        #expect(reads.answer(for: 1, scoped: false) == 2)
    }

    @Test func anErasureTouchesEveryScope() async throws {
        let models = try TallyReadModels()
        try await models.given([("cups", 1, 1), ("cups", 2, 1)])
        _ = try models.runner.catchUp()
        let reads = Reads(models)
        #expect(reads.answer(for: 1) == 1)
        _ = try await models.store.append([.userErased(UserErased(userId: 2, initiator: .operator))], to: "user-2", eventId: .timeOrdered())
        _ = try models.runner.catchUp()
        #expect(reads.answer(for: 1) == 2)
    }
}
