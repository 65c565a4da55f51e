import SavryProjections
import Testing
import TestSupport

@Test func everyTableAProjectionCreatesIsDeclaredAndEveryProjectionIsFolded() throws {
    #expect(try ReadModelDeclarations.schemaMismatches(SavryProduct.projections) == [])
    #expect(try ReadModelDeclarations.unfolded("Savry", folded: SavryProduct.projections) == [])
}
