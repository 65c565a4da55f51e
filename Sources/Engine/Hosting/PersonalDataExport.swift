import EventLog
import EventSourcing
import ReadModels
import Foundation
import Hummingbird
import PersonalData

/// Everything a product holds about one user, for the user (GDPR Art. 15 and 20): the product's own
/// view of their account, then every event they caused or that concerns them, oldest first, each
/// payload in its current schema with their own personal fields opened. Others' personal fields in
/// those events (none in today's products) are left out, and so are the events the product conceals
/// from their subjects (`EventSourcedProduct.concealedFromSubjects`). Streamed a page of events at a time, so a
/// long history is never held whole.
///
/// `{"product", "user_id", "exported_at", "account": {…}, "events": [{"position", "event_id",
/// "type", "schema_version", "stream", "recorded_at", "role", "payload"}]}`
public struct PersonalDataExport<Product: EventSourcedProduct>: Sendable {
    let log: EventLog
    let personalData: KeyStoreCipher
    static var pageSize: Int { 500 }

    public init(stores: ProductStores<Product>) {
        log = stores.log
        personalData = stores.personalData
    }

    /// `account` is the product's summary of the user from its read models, as a JSON object;
    /// `timestamp` writes `exported_at` and each `recorded_at` as the product's contract writes instants.
    public func response(for userId: Int64, account: Data, timestamp: @escaping @Sendable (Date) -> String) -> Response {
        let log = log
        let view = OwnFieldsOnly(user: userId, personalData: personalData)
        var headers = HTTPFields()
        headers[.contentType] = "application/json; charset=utf-8"
        headers[.contentDisposition] = "attachment; filename=\"\(Product.name)-export-\(userId).json\""
        headers[.cacheControl] = "no-store"
        return Response(status: .ok, headers: headers, body: ResponseBody { writer in
            var head = Data("{\"product\":\"\(Product.name)\",\"user_id\":\(userId),\"exported_at\":\"\(timestamp(Date()))\",\"account\":".utf8)
            head.append(account)
            head.append(Data(",\"events\":[".utf8))
            try await writer.write(ByteBuffer(bytes: head))
            var from: UInt64 = 1
            var separator = ""
            while true {
                let page = try log.readUser(userId, from: from, limit: Self.pageSize)
                guard let last = page.last else { break }
                var chunk = Data()
                for record in page where record.actorUserId == userId || !Product.concealedFromSubjects.contains(record.type) {
                    chunk.append(Data(separator.utf8))
                    chunk.append(try Self.entry(record, of: userId, view: view, timestamp: timestamp))
                    separator = ","
                }
                try await writer.write(ByteBuffer(bytes: chunk))
                from = last.position + 1
            }
            try await writer.write(ByteBuffer(string: "]}"))
            try await writer.finish(nil)
        })
    }

    static func entry(_ record: RecordedEvent, of userId: Int64, view: OwnFieldsOnly, timestamp: (Date) -> String) throws -> Data {
        let object: [String: Any] = [
            "position": record.position, "event_id": record.id.uuidString.lowercased(), "type": record.type,
            "schema_version": record.schemaVersion, "stream": record.streamId, "recorded_at": timestamp(record.recordedAt),
            "role": record.actorUserId == userId ? "actor" : "subject",
            "payload": withheld(try JSONSerialization.jsonObject(with: try Product.Catalog.presentedPayload(of: record, opening: view))),
        ]
        return try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
    }

    /// The payload without the fields the product withholds from exports.
    private static func withheld(_ payload: Any) -> Any {
        guard var object = payload as? [String: Any], !Product.withheldFromExport.isEmpty else { return payload }
        for field in Product.withheldFromExport { object[field] = nil }
        return object
    }
}

/// Opens the exporting user's own personal fields; anyone else's read as absent.
struct OwnFieldsOnly: PersonalDataCipher {
    let user: Int64
    let personalData: KeyStoreCipher

    func seal(_ value: String, owner: Int64, field: String) throws -> String { value }

    func open(_ stored: String, owner: Int64, field: String) throws -> String? {
        owner == user ? try personalData.open(stored, owner: owner, field: field) : nil
    }

    var keyDestructions: UInt64 { personalData.keyDestructions }

    func onKeysDestroyed(_ action: @escaping @Sendable (UInt64) -> Void) {
        personalData.onKeysDestroyed(action)
    }
}
