import ChatDomain

enum AttachmentLimits {
    /// Every file at its largest, and 1 MB for the rest of the form.
    static let maximumRequestBytes = AttachmentRules.maximumFiles * AttachmentRules.maximumFileBytes + (1 << 20)
    /// A JSON body of any endpoint: a message at its longest, in multi-byte text, fits.
    static let maximumJSONBytes = 256 * 1024
    /// Request bodies held in memory at once by send-chat, across requests (`UploadBudget`): one
    /// upload at its largest, or several smaller ones side by side.
    static let uploadMemoryBytes = maximumRequestBytes

    /// The limit a body too large passed, as its 413 says it: the endpoint's own, or the contract's
    /// two when the endpoint gave none.
    static func passed(_ limit: Int?) -> String {
        switch limit {
        case maximumRequestBytes?: "A multipart form takes at most \(AttachmentRules.maximumFiles) files of \(AttachmentRules.maximumFileBytes >> 20) MB each"
        case let bytes?: "This endpoint takes a body of at most \(bytes >> 10) KB"
        case nil:
            "A JSON or URL-encoded body takes at most \(maximumJSONBytes >> 10) KB; a multipart form at most "
                + "\(AttachmentRules.maximumFiles) files of \(AttachmentRules.maximumFileBytes >> 20) MB each"
        }
    }
}
