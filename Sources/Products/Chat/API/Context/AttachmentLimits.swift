import ChatDomain

enum AttachmentLimits {
    /// Every file at its largest, and 1 MB for the rest of the form.
    static let maximumRequestBytes = AttachmentRules.maximumFiles * AttachmentRules.maximumFileBytes + (1 << 20)
    /// A JSON body of any endpoint: a message at its longest, in multi-byte text, fits.
    static let maximumJSONBytes = 256 * 1024
    /// Request bodies held in memory at once by send-chat, across requests (`UploadBudget`): one
    /// upload at its largest, or several smaller ones side by side.
    static let uploadMemoryBytes = maximumRequestBytes
}
