import HTTPTypes
import Hummingbird
import ReadModels

/// Reading your writes on any node. Every answer carries `X-Log-Position`: the log position this
/// node's read models had folded through when it answered (after a write, at least the write's). A
/// request that sends it back as `X-Min-Position` waits, at most the read-your-writes timeout, until
/// the node that serves it has folded that far, so a read that follows a write on another node sees
/// it; past the timeout it is refused as `notCaughtUp` (503, the product's shape: nothing was done).
/// A client that sends nothing is served at once, as before; `scripts/serve-cluster.sh` routes each
/// user to one node, so it still reads its own writes. A position past the last one written to the
/// log (on a shared log, as its server says when asked) is refused at once (400): no write gave it
/// out, and waiting for it would only hold the connection, for anyone, signed in or not.
public struct LogPositionMiddleware<Context: RequestContext>: RouterMiddleware {
    static var position: HTTPField.Name { .init("X-Log-Position")! }
    static var minimum: HTTPField.Name { .init("X-Min-Position")! }
    private let readYourWrites: ReadYourWrites

    public init(readYourWrites: ReadYourWrites) {
        self.readYourWrites = readYourWrites
    }

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if let sent = request.headers[Self.minimum] {
            guard let minimum = UInt64(sent) else {
                throw EngineRefusal.otherClientError(.badRequest, message: "X-Min-Position must be a log position (a whole number from 0), as X-Log-Position gave it")
            }
            if minimum > readYourWrites.appliedPosition {
                let written = try await readYourWrites.lastWritten()
                guard minimum <= written else {
                    throw EngineRefusal.otherClientError(
                        .badRequest, message: "X-Min-Position \(minimum) is past the last position written, \(written): send back an X-Log-Position this server gave"
                    )
                }
                do {
                    try await readYourWrites.wait(for: minimum)
                } catch {
                    throw NotCaughtUp(position: minimum)
                }
            }
        }
        var response = try await next(request, context)
        // Folds read what the log has committed, which may pass the head its writer has published
        // yet: a position past that head, sent back, would be refused.
        let applied = readYourWrites.appliedPosition
        response.headers[Self.position] = String(min(applied, readYourWrites.writtenPosition ?? applied))
        return response
    }
}
