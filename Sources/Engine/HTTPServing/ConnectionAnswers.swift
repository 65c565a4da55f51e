import HTTPTypes
import Metrics
import NIOCore

/// A response the server writes from below the router, where no request reaches a handler: the
/// status, the headers and the body in the product's error shape (`ContractError.connectionAnswers`).
public struct ConnectionAnswer: Sendable {
    public var status: HTTPResponse.Status
    public var headers: HTTPFields
    public var body: ByteBuffer
    /// What it refuses, as `engine_http_refused_below_router_total` counts it (set by `ConnectionAnswers`).
    fileprivate(set) var reason = ""
    /// Answers a `CONNECT`, whose response NIO's encoder would send without its body (it expects a
    /// tunnel): written as bytes below the encoder instead.
    fileprivate(set) var answersConnect = false

    public init(status: HTTPResponse.Status, headers: HTTPFields, body: ByteBuffer) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// Counts it once answered: no route is involved, so the request metrics never see it.
    func count() {
        Counter(label: "engine_http_refused_below_router_total", dimensions: [("reason", reason), ("status", String(status.code))]).increment()
    }

    /// The head as sent: the answer's headers with the body's length, the request's id, and the
    /// connection closing.
    func head(requestId: String) -> HTTPResponse {
        var fields = headers
        fields[.contentLength] = "\(body.readableBytes)"
        fields[.connection] = "close"
        fields[.requestId] = requestId
        return HTTPResponse(status: status, headerFields: fields)
    }

    /// The whole response as HTTP/1.1 bytes, for an answer written below the response encoder.
    func bytes(requestId: String) -> ByteBuffer {
        let head = head(requestId: requestId)
        var text = "HTTP/1.1 \(head.status.code) \(head.status.reasonPhrase)\r\n"
        for field in head.headerFields { text += "\(field.name): \(field.value)\r\n" }
        var bytes = ByteBuffer(string: text + "\r\n")
        bytes.writeImmutableBuffer(body)
        return bytes
    }
}

/// What a product answers before any route is involved.
public struct ConnectionAnswers: Sendable {
    /// To bytes that are not HTTP (a garbage request line, a broken header).
    public let malformed: ConnectionAnswer
    /// To a head past the decoder's limits (80 KB of headers).
    public let headersTooLarge: ConnectionAnswer
    /// To a request with more than one `Host` header.
    public let hostHeader: ConnectionAnswer
    /// The same answer, counted apart: to a `Host` that is not a host and port (`HostValue`).
    let invalidHost: ConnectionAnswer
    /// To a request that expects `100 Continue` for a body longer than any route reads
    /// (`maximumBodySize`, which this answer names): refused before the body is sent.
    public let bodyTooLarge: ConnectionAnswer
    public let maximumBodySize: Int
    /// To `CONNECT`: this server is no proxy.
    let notAProxy: ConnectionAnswer

    public init(
        notAProxy: ConnectionAnswer, malformed: ConnectionAnswer, headersTooLarge: ConnectionAnswer, hostHeader: ConnectionAnswer, bodyTooLarge: ConnectionAnswer,
        maximumBodySize: Int
    ) {
        func named(_ answer: ConnectionAnswer, _ reason: String) -> ConnectionAnswer {
            var answer = answer
            answer.reason = reason
            return answer
        }
        var connectAnswer = named(notAProxy, "not_a_proxy")
        connectAnswer.answersConnect = true
        self.notAProxy = connectAnswer
        self.malformed = named(malformed, "malformed")
        self.headersTooLarge = named(headersTooLarge, "headers_too_large")
        self.hostHeader = named(hostHeader, "several_hosts")
        invalidHost = named(hostHeader, "invalid_host")
        self.bodyTooLarge = named(bodyTooLarge, "body_too_large")
        self.maximumBodySize = maximumBodySize
    }
}
