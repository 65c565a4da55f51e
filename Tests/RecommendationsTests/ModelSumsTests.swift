@testable import NuvieRecommendations
import Testing

/// `sums(of:and:)` walks the weights' upper triangle once for both sets of seeds: what it adds up
/// must be exactly the weights `weight(row:column:)` reads one by one, for every film.
@Suite(.timeLimit(.minutes(2))) struct ModelSumsTests {
    /// Twenty users, each rating a seeded handful of twelve films.
    let interactions: [(userId: Int64, movieId: Int64)] = {
        var pairs: [(userId: Int64, movieId: Int64)] = []
        for user in Int64(1)...20 {
            for film in Int64(1)...12 where (user * 7 + film * 5) % 3 != 0 || film == user % 12 { pairs.append((user, film)) }
        }
        return pairs
    }()

    @Test(arguments: [true, false]) func bothSetsOfSeedsSumEachWeightOnce(keepsNegativeWeights: Bool) throws {
        let model = try ItemSimilarityModel.train(interactions, parameters: .init(minimumRatings: 1, lambda: 2, keepsNegativeWeights: keepsNegativeWeights))
        #expect(model.count == 12)
        let liked = [(row: 0, weight: 1.0), (row: 5, weight: 0.75), (row: 11, weight: 0.5)]
        let others = [(row: 3, weight: 1.0), (row: 5, weight: 0.25), (row: 6, weight: 2.0)]
        let (first, second) = model.sums(of: liked, and: others)
        for column in 0..<model.count {
            let expected = [liked, others].map { seeds in seeds.reduce(0) { $0 + $1.weight * model.weight(row: $1.row, column: column) } }
            #expect(abs(first[column] - expected[0]) < 1e-12 && abs(second[column] - expected[1]) < 1e-12, "film \(column)")
        }
        #expect(model.sums(of: liked) == first)
        if !keepsNegativeWeights { #expect(first.allSatisfy { $0 >= 0 } && second.allSatisfy { $0 >= 0 }) }
    }
}
