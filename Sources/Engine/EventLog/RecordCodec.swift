import Foundation

/// Binary layout of keys and of the stored event record. Keys are big-endian so LMDB's byte order is
/// numeric order; record fields are little-endian. Changing this layout needs a new `formatVersion`.
enum RecordCodec {
    static let formatVersion: UInt8 = 1

    static func key(_ value: UInt64) -> [UInt8] { withUnsafeBytes(of: value.bigEndian, Array.init) }

    static func uint64(fromKey bytes: UnsafeRawBufferPointer, at offset: Int = 0) -> UInt64 {
        UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }

    static func uint64(fromKey bytes: [UInt8]) -> UInt64 { bytes.withUnsafeBytes { uint64(fromKey: $0) } }

    static func streamKey(_ streamId: String, version: UInt64) -> [UInt8] {
        Array(streamId.utf8) + [0] + key(version)
    }

    static func userKey(_ userId: Int64, position: UInt64) -> [UInt8] {
        key(UInt64(bitPattern: userId)) + key(position)
    }

    static func uuidKey(_ id: UUID) -> [UInt8] { withUnsafeBytes(of: id.uuid, Array.init) }

    /// Every field but the position, which is the record's key.
    static func encode(_ event: RecordedEvent) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(64 + event.type.utf8.count + event.streamId.utf8.count + event.payload.count)
        out.append(formatVersion)
        out += uuidKey(event.id)
        append(event.recordedAtMicroseconds, to: &out)
        append(event.schemaVersion, to: &out)
        append(event.streamVersion, to: &out)
        out.append(event.actorUserId == nil ? 0 : 1)
        append(event.actorUserId ?? 0, to: &out)
        appendString(event.type, to: &out)
        appendString(event.streamId, to: &out)
        append(UInt16(event.userIds.count), to: &out)
        for user in event.userIds { append(user, to: &out) }
        out += event.payload
        return out
    }

    static func decode(_ bytes: UnsafeRawBufferPointer, position: UInt64) throws -> RecordedEvent {
        var reader = Reader(bytes: bytes, position: position)
        let format: UInt8 = try reader.read()
        guard format == formatVersion else { throw EventLogError.corruptRecord(position: position, reason: "unknown record format \(format)") }
        let uuidBytes = try reader.take(16)
        let id = UUID(uuid: uuidBytes.withUnsafeBytes { $0.loadUnaligned(as: uuid_t.self) })
        let recordedAt: Int64 = try reader.read()
        let schemaVersion: UInt16 = try reader.read()
        let streamVersion: UInt64 = try reader.read()
        let hasActor: UInt8 = try reader.read()
        let actor: Int64 = try reader.read()
        let type = try reader.readString()
        let streamId = try reader.readString()
        let userCount: UInt16 = try reader.read()
        var userIds: [Int64] = []
        userIds.reserveCapacity(Int(userCount))
        for _ in 0..<userCount { userIds.append(try reader.read()) }
        let payload = Data(try reader.take(bytes.count - reader.offset))
        return RecordedEvent(
            position: position, id: id, type: type, schemaVersion: schemaVersion, streamId: streamId,
            streamVersion: streamVersion, recordedAtMicroseconds: recordedAt,
            actorUserId: hasActor == 1 ? actor : nil, userIds: userIds, payload: payload
        )
    }

    private static func append<T: FixedWidthInteger>(_ value: T, to out: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { out += $0 }
    }

    private static func appendString(_ value: String, to out: inout [UInt8]) {
        let utf8 = Array(value.utf8)
        append(UInt16(utf8.count), to: &out)
        out += utf8
    }

    private struct Reader {
        let bytes: UnsafeRawBufferPointer
        let position: UInt64
        var offset = 0

        mutating func take(_ count: Int) throws -> UnsafeRawBufferPointer {
            guard count >= 0, offset + count <= bytes.count else { throw EventLogError.corruptRecord(position: position, reason: "truncated") }
            defer { offset += count }
            return UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + count])
        }

        mutating func read<T: FixedWidthInteger>() throws -> T {
            let raw = try take(MemoryLayout<T>.size)
            return T(littleEndian: raw.loadUnaligned(as: T.self))
        }

        mutating func readString() throws -> String {
            let count: UInt16 = try read()
            return String(decoding: try take(Int(count)), as: UTF8.self)
        }
    }
}
