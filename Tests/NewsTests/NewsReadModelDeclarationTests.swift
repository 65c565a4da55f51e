import NewsProjections
import Testing
import TestSupport

@Test func everyTableAProjectionCreatesIsDeclaredAndEveryProjectionIsFolded() throws {
    #expect(try ReadModelDeclarations.schemaMismatches(NewsProduct.projections) == [])
    #expect(try ReadModelDeclarations.unfolded("News", folded: NewsProduct.projections) == [])
}
