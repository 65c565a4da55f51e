import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import ProductHosting

/// How a product answers each of the engine's refusals, rendered by a live router that mounts its
/// `ContractErrorMiddleware`: a refusal thrown by a route, the answer read back over HTTP.
public enum EngineRefusalAnswers {
    public struct Answer: Sendable {
        public var refusal: EngineRefusal
        public var status: HTTPResponse.Status
        /// The answer body's top-level JSON keys.
        public var keys: Set<String>
    }

    struct NotAnObject: Error {}

    /// Each of `EngineRefusal.examples` answered by `Failure`, and the keys of `Failure.internalError`
    /// (the shape every answer must share).
    public static func of<Failure: ContractError>(_ failure: Failure.Type) async throws -> (answers: [Answer], shape: Set<String>) {
        let router = Router()
        router.middlewares.add(ContractErrorMiddleware<BasicRequestContext, Failure>())
        router.get("/refusal/:index") { _, context -> Response in
            throw EngineRefusal.examples[try context.parameters.require("index", as: Int.self)]
        }
        router.get("/bug") { _, _ -> Response in throw CancellationError() }
        return try await serve(router, logger: Logger(label: "refusals")) { port in
            var answers: [Answer] = []
            for (index, refusal) in EngineRefusal.examples.enumerated() {
                let response = try await TestSupport.get("/refusal/\(index)", port: port)
                answers.append(Answer(refusal: refusal, status: response.status, keys: try keysOf(response.body)))
            }
            return (answers, try keysOf(try await TestSupport.get("/bug", port: port).body))
        }
    }

    /// What is wrong with `Failure`'s answers: a refusal answered with a 5xx other than 503 (a
    /// refusal is no bug), or in another shape than the product's errors. Empty when none.
    public static func problems<Failure: ContractError>(of failure: Failure.Type) async throws -> [String] {
        let (answers, shape) = try await of(failure)
        return answers.compactMap { answer in
            if answer.status.code >= 500, answer.status != .serviceUnavailable { return "\(answer.refusal): \(answer.status.code)" }
            if answer.keys != shape { return "\(answer.refusal): keys \(answer.keys.sorted()), not \(shape.sorted())" }
            return nil
        }
    }

    private static func keysOf(_ body: ByteBuffer?) throws -> Set<String> {
        guard let body, let object = try JSONSerialization.jsonObject(with: Data(buffer: body)) as? [String: Any] else { throw NotAnObject() }
        return Set(object.keys)
    }
}
