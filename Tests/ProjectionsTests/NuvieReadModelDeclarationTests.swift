import NuvieProjections
import Testing
import TestSupport

@Test func everyTableAProjectionCreatesIsDeclaredAndEveryProjectionIsFolded() throws {
    #expect(try ReadModelDeclarations.schemaMismatches(NuvieProduct.projections) == [])
    #expect(try ReadModelDeclarations.unfolded("Nuvie", folded: NuvieProduct.projections) == [])
}
