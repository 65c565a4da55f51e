import Foundation
import TestSupport

/// Nuvie's error shape in a response read off the wire.
extension RawResponse {
    var errorCode: String? {
        let json = (try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any]
        return (json?["error"] as? [String: Any])?["code"] as? String
    }

    /// `{"error":{"code","message","details"}}` and nothing else.
    var hasErrorShape: Bool {
        guard let json = (try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any], json.count == 1,
              let error = json["error"] as? [String: Any] else { return false }
        return error["code"] is String && error["message"] is String && error["details"] is [String: Any]
    }
}
