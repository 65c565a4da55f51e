import NuvieAPI
import Testing
import TestSupport

@Test func everyEngineRefusalIsAnsweredInTheContractsShapeAndNeverAsABug() async throws {
    #expect(try await EngineRefusalAnswers.problems(of: NuvieAPIError.self) == [])
}
