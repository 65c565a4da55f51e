import EventLog
import Foundation
import PersonalData
import ProductHosting
import ReadModels

/// The live log (read-only) and the live key store, without the read models: what a command that
/// folds a past state of its own reads (`as-of`). Opening the live read database would also prune
/// its stale generations, one of which may be a replay the server is building.
public struct LiveLogAndKeys: Sendable {
    public let log: EventLog
    public let keys: KeyStore

    public var personalData: KeyStoreCipher { KeyStoreCipher(keys: keys) }

    public func close() {
        log.close()
        try? keys.close()
    }
}

extension ProductOptions {
    public func openLogAndKeys() throws -> LiveLogAndKeys {
        let directory = try existingProductDirectory()
        let log = try EventLog(configuration: .init(directory: directory.log, readOnly: true))
        do {
            return LiveLogAndKeys(log: log, keys: try KeyStore(path: directory.keyStorePath, masterKey: try masterKey()))
        } catch {
            log.close()
            throw error
        }
    }
}
