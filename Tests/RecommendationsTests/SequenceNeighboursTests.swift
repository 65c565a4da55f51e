@testable import NuvieRecommendations
import Testing

/// Given who rated what in which order, the sequence weights: each two films at most
/// `SequenceNeighbours.reach` ratings apart in a user's history add 1 / their distance, both ways,
/// over √(each film's ratings).
@Suite(.timeLimit(.minutes(1))) struct SequenceNeighboursTests {
    /// User 1 rates films 1–5 in that order, user 2 films 1 and 2; user 3 rates 7, then 8, then
    /// finishes 7 again (a pair listed twice counts where it first came).
    let interactions: [(userId: Int64, movieId: Int64)] = [(1, 1), (2, 1), (1, 2), (2, 2), (1, 3), (1, 4), (3, 7), (1, 5), (3, 8), (3, 7)]

    @Test func filmsRatedCloserTogetherWeighMore() throws {
        let model = try ItemSimilarityModel.train(interactions, parameters: .init(minimumRatings: 1, lambda: 1))
        // 1 and 2 are next to each other in both histories, rated twice each: (1 + 1) / √(2·2).
        #expect(model.sequenceWeight(from: 1, to: 2) == 1)
        #expect(abs(model.sequenceWeight(from: 1, to: 3) - 0.5 / 2.0.squareRoot()) < 1 / SequenceNeighbours.scale, "16 bits")
        #expect(abs(model.sequenceWeight(from: 1, to: 4) - (1.0 / 3) / 2.0.squareRoot()) < 1 / SequenceNeighbours.scale)
        #expect(model.sequenceWeight(from: 1, to: 5) == 0, "four ratings apart: beyond the reach")
        #expect(model.sequenceWeight(from: 7, to: 8) == 1 && model.sequenceWeight(from: 8, to: 7) == 1)
        #expect(model.sequenceWeight(from: 1, to: 7) == 0, "never in one history")
        for a in model.movieIds {
            for b in model.movieIds { #expect(model.sequenceWeight(from: a, to: b) == model.sequenceWeight(from: b, to: a)) }
        }
    }

    @Test func theSumsAreTheWeightsOneByOne() throws {
        let model = try ItemSimilarityModel.train(interactions, parameters: .init(minimumRatings: 1, lambda: 1))
        let seeds = [(row: 0, weights: SIMD2(1.0, 0.25)), (row: 2, weights: SIMD2(0.5, 2))]
        let sums = model.sequence.sums(of: seeds)
        for column in 0..<model.count {
            let expected = seeds.reduce(SIMD2<Double>.zero) { $0 + $1.weights * model.sequence.weight(row: $1.row, column: column) }
            #expect(abs(sums[column].x - expected.x) < 1e-12 && abs(sums[column].y - expected.y) < 1e-12, "film \(model.movieIds[column])")
        }
    }

    /// A history's order decides the weights, not the order users come in: the same histories
    /// interleaved another way give the same model, bit for bit.
    @Test func onlyEachUsersOwnOrderCounts() throws {
        let parameters = ItemSimilarityModel.Parameters(minimumRatings: 1, lambda: 1)
        let byUser = interactions.enumerated().sorted { ($0.element.userId, $0.offset) < ($1.element.userId, $1.offset) }.map(\.element)
        #expect(try ItemSimilarityModel.train(byUser, parameters: parameters) == ItemSimilarityModel.train(interactions, parameters: parameters))
        let reordered = try ItemSimilarityModel.train(interactions.filter { $0.userId != 1 } + [(1, 2), (1, 1), (1, 3), (1, 4), (1, 5)], parameters: parameters)
        #expect(try reordered.sequenceWeight(from: 1, to: 3) != ItemSimilarityModel.train(interactions, parameters: parameters).sequenceWeight(from: 1, to: 3))
    }
}
