import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NuvieProjections
import NuvieRecommendations

/// An AI service behind a URL that speaks the internal contract (`POST /ai/recommend`,
/// `POST /ai/explain` with `X-Internal-Token`), with a deadline per call.
public struct RemoteRecommendationEngine: RecommendationEngine {
    let baseURL: URL
    let internalToken: String
    let timeout: Duration
    let client: HTTPClient

    public init(baseURL: URL, internalToken: String, timeout: Duration, client: HTTPClient = .shared) {
        self.baseURL = baseURL
        self.internalToken = internalToken
        self.timeout = timeout
        self.client = client
    }

    public func recommend(_ query: RecommendQuery) async throws -> RecommendationList {
        let reply: AIRecommendResponseDTO = try await post("ai/recommend", AIRecommendRequestDTO(query), query.userId)
        guard reply.requestId == query.requestId else { throw RecommendationError.unavailable("request_id came back changed") }
        // What the contract promises, whatever the service sent: no excluded film, at most `limit`
        // items, a time to live of at most a day.
        var list = try reply.list(offset: query.offset)
        list.items = Array(list.items.filter { !query.excludeMovieIds.contains($0.movieId) }.prefix(query.limit))
        list.ttlSeconds = min(max(list.ttlSeconds, 0), Self.longestTTL)
        return list
    }

    public func explain(_ query: ExplainQuery) async throws -> MovieExplanation {
        let reply: AIExplainResponseDTO = try await post("ai/explain", AIExplainRequestDTO(query), query.userId, movieId: query.movieId)
        guard reply.requestId == query.requestId else { throw RecommendationError.unavailable("request_id came back changed") }
        return try reply.explained()
    }

    static let longestTTL = 86_400

    private func post<Reply: Decodable>(_ path: String, _ body: some Encodable, _ userId: Int64, movieId: Int64? = nil) async throws -> Reply {
        var request = HTTPClientRequest(url: baseURL.appendingPathComponent(path).absoluteString)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.headers.add(name: "X-Internal-Token", value: internalToken)
        request.body = .bytes(ByteBuffer(data: try NuvieJSON.encoder().encode(body)))
        let response: HTTPClientResponse
        let bytes: ByteBuffer
        do {
            response = try await client.execute(request, timeout: .nanoseconds(timeout.nanoseconds))
            bytes = try await response.body.collect(upTo: 4 << 20)
        } catch let error as HTTPClientError where error == .deadlineExceeded || error == .readTimeout || error == .connectTimeout {
            throw RecommendationError.timeout
        } catch {
            throw RecommendationError.unavailable("\(error)")
        }
        guard response.status == .ok else { throw Self.error(status: response.status, body: bytes, userId: userId, movieId: movieId) }
        do {
            return try NuvieJSON.decoder().decode(Reply.self, from: Data(buffer: bytes))
        } catch {
            throw RecommendationError.unavailable("the answer does not follow the contract: \(error)")
        }
    }

    private static func error(status: HTTPResponseStatus, body: ByteBuffer, userId: Int64, movieId: Int64?) -> RecommendationError {
        struct Envelope: Decodable { struct Body: Decodable { var code: String; var message: String }; var error: Body }
        guard let envelope = try? JSONDecoder().decode(Envelope.self, from: Data(buffer: body)) else {
            return .unavailable("HTTP \(status.code)")
        }
        switch envelope.error.code {
        case "MODEL_NOT_READY": return .modelNotReady
        case "TIMEOUT": return .timeout
        case "USER_NOT_FOUND": return .userNotFound(userId)
        case "MOVIE_NOT_FOUND": return movieId.map(RecommendationError.movieNotFound) ?? .unavailable(envelope.error.message)
        case "INVALID_REQUEST": return .invalidRequest(envelope.error.message)
        default: return .unavailable("\(envelope.error.code): \(envelope.error.message)")
        }
    }
}
