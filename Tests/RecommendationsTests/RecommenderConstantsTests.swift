import NuvieRecommendations
import Testing

/// `NUVIE_RECOMMENDER`'s line: what `nuvie eval --tune` prints is what the server reads back.
@Suite struct RecommenderConstantsTests {
    @Test func theDefaultsReadBackFromTheirLine() throws {
        let defaults = RecommenderConstants()
        #expect(defaults.text == "lambda=250 minimum-ratings=10 genre-share=0.15 half-life=5 floor=0.5 sequence=0.3 recent-sequence=0.3 rated-not-liked=1 full-history=20")
        #expect(try RecommenderConstants(defaults.text) == defaults)
        #expect(try RecommenderConstants("") == defaults)
    }

    @Test func aKeyLeftOutKeepsItsDefault() throws {
        let tuned = try RecommenderConstants("lambda=500  floor=1\thalf-life=none genre-share=0.05")
        var expected = RecommenderConstants()
        (expected.lambda, expected.recencyFloor, expected.recencyHalfLife, expected.genreShare) = (500, 1, nil, 0.05)
        #expect(tuned == expected)
        #expect(try RecommenderConstants(tuned.text) == tuned)
    }

    @Test func aLineThatCannotBeServedIsRefusedSayingWhy() {
        for (line, said) in [
            ("floor=2", "floor must be a number from 0 to 1"), ("floor=abc", "floor must be"), ("lambda=nan", "lambda must be"),
            ("lambda=inf", "lambda must be"), ("bogus=1", "bogus is not a constant"), ("floor=1 floor=0.5", "floor is given twice"),
            ("floor", "floor is not key=value"), ("floor=", "floor= is not key=value"), ("minimum-ratings=1.5", "minimum-ratings must be a whole number"),
            ("half-life=0", "half-life must be"), ("full-history=2", "full-history must be a number from 3"),
        ] {
            #expect(throws: RecommenderConstants.Invalid.self, "\(line)") { try RecommenderConstants(line) }
            do {
                _ = try RecommenderConstants(line)
            } catch {
                #expect(error.description.contains(said), "\(line): \(error)")
            }
        }
    }
}
