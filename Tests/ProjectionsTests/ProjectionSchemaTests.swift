import Foundation
import NuvieProjections
import TestSupport
import Testing

/// A projection version's schema is frozen: its migration is registered under `name.vN` and runs
/// once per database, so changing `createSchema` without bumping the version would leave existing
/// read models on the old tables. Each version's schema is kept in `Schemas/name.vN.sql`; a change
/// without a new version fails here. A new version: run once with `NUVIE_RECORD_SCHEMAS=1` and commit
/// the new file beside the old ones.
@Test func eachProjectionVersionKeepsItsRecordedSchema() throws {
    let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Schemas")
    #expect(try projectionsWithChangedSchemas(NuvieReadModels.all, recordedIn: directory, recordFlag: "NUVIE_RECORD_SCHEMAS") == [])
}
