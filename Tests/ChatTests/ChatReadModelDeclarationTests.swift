import ChatProjections
import Testing
import TestSupport

@Test func everyTableAProjectionCreatesIsDeclaredAndEveryProjectionIsFolded() throws {
    #expect(try ReadModelDeclarations.schemaMismatches(ChatProduct.projections) == [])
    #expect(try ReadModelDeclarations.unfolded("Chat", folded: ChatProduct.projections) == [])
}
