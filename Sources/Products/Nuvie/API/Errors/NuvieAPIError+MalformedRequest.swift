import HTTPTypes

extension NuvieAPIError {
    /// The request's bytes stop being HTTP part-way (a chunk size that is not hexadecimal, say): the
    /// client's fault, so 400, and the connection closes after it since where a next request would
    /// start cannot be known.
    static let malformedRequest: NuvieAPIError = {
        var error = NuvieAPIError(.badRequest, code: "INVALID_REQUEST", message: "The request is not well-formed HTTP")
        error.headers[.connection] = "close"
        return error
    }()
}
