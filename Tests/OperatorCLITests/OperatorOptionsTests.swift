import ArgumentParser
import EventLog
import Foundation
import OperatorCLI
import ProductHosting
import TestSupport
import Testing

/// The options every operator command of a product takes, parsed as a shell passes them, over the
/// engine's test product.
@Suite struct OperatorOptionsTests {
    @Test func aDataDirectoryMarkedForAnotherProductIsRefused() throws {
        let directory = try TemporaryDirectory()
        try Data("nuvie\n".utf8).write(to: DataDirectory(directory.url).productMarker)
        let options = try ProductOptions<TallyProduct>.parse(["--data-dir", directory.url.path])
        #expect(throws: DataDirectoryError.belongsToAnotherProduct(directory.url.standardizedFileURL.path, marked: "nuvie", expected: "tally")) {
            try options.productDirectory()
        }
        let own = try TemporaryDirectory()
        try Data("tally\n".utf8).write(to: DataDirectory(own.url).productMarker)
        #expect(try ProductOptions<TallyProduct>.parse(["--data-dir", own.url.path]).productDirectory().root.path == own.url.standardizedFileURL.path)
    }

    /// Each named with the variable that gives it, as every setting's refusal is.
    @Test(arguments: [
        (["--log-level", "loud"], "TALLY_LOG_LEVEL"),
        (["--log-format", "yaml"], "TALLY_LOG_FORMAT"),
        (["--log-url", "mysql://db/log"], "TALLY_LOG_URL"),
    ])
    func optionsThatCannotBeUsedAreRefusedBeforeAnythingRuns(arguments: [String], variable: String) {
        do {
            _ = try ProductOptions<TallyProduct>.parse(arguments)
            Issue.record("\(arguments) taken")
        } catch {
            #expect(ProductOptions<TallyProduct>.message(for: error).contains(variable), "\(ProductOptions<TallyProduct>.message(for: error))")
        }
    }

    /// A setting exported empty (an `EnvironmentFile` line with nothing after `=`) counts as unset, as
    /// every other setting's does: an empty `_DATA_DIR` was the working directory, an empty
    /// `_LOG_LEVEL` refused. Tests running meanwhile read the same defaults either way.
    @Test func emptyEnvironmentVariablesCountAsUnset() throws {
        let names = ["TALLY_DATA_DIR", "TALLY_LOG_LEVEL", "TALLY_LOG_URL"]
        for name in names { setenv(name, "", 1) }
        defer { for name in names { unsetenv(name) } }
        let options = try ProductOptions<TallyProduct>.parse([])
        #expect(options.dataDir == "tally-data" && options.logLevel == "info" && options.logURL == nil)
    }

    @Test(arguments: [
        [String](), ["--position", "3", "--time", "2026-01-01"], ["--time", "2026-02-30"], ["--time", "yesterday"], ["--position", "-1"],
    ])
    func asOfTakesExactlyOneRealPositionOrInstant(arguments: [String]) {
        #expect(throws: (any Error).self) { try AsOfOptions.parse(arguments) }
    }

    @Test func aPositionPastTheLogsHeadIsRefusedAndAnInstantResolvesToTheLastEventAtOrBeforeIt() async throws {
        let directory = try TemporaryDirectory()
        let log = try EventLog(configuration: .init(directory: directory.url, initialMapSize: 1 << 20))
        defer { log.close() }
        let at = Date(timeIntervalSince1970: 1_767_225_600)
        for offset in 0..<3 {
            _ = try await log.append(to: "s", expectedVersion: .any, events: [
                NewEvent(type: "counted", recordedAt: at.addingTimeInterval(Double(offset) * 60), payload: Data("{}".utf8)),
            ])
        }
        #expect(throws: OperatorRefusal("the log ends at position 3")) { try AsOfOptions.parse(["--position", "4"]).resolve(in: log) }
        #expect(try AsOfOptions.parse(["--time", "2026-01-01T00:01:30Z"]).resolve(in: log).position == 2)
        #expect(try AsOfOptions.parse(["--position", "0"]).resolve(in: log).recordedAt == "before the first event")
    }

    /// A time is the last instant of the precision it is written to: an audit shows an event recorded at
    /// 00:00:00.5 as 00:00:00, and that time given back includes it. A date stays its midnight.
    @Test func aTimeIncludesEveryEventWithinThePrecisionItIsWrittenTo() async throws {
        let directory = try TemporaryDirectory()
        let log = try EventLog(configuration: .init(directory: directory.url, initialMapSize: 1 << 20))
        defer { log.close() }
        let midnight = Date(timeIntervalSince1970: 1_767_225_600)
        for offset in [0.5, 1.25] {
            _ = try await log.append(to: "s", expectedVersion: .any, events: [NewEvent(type: "counted", recordedAt: midnight + offset, payload: Data("{}".utf8))])
        }
        let times = [
            "2026-01-01T00:00:00Z", "2026-01-01T00:00:01.2Z", "2026-01-01T00:00:01.24Z", "2025-12-31T23:59:59.999999Z", "2026-01-01",
            "2026-01-01T00:00:00.500000Z", "2026-01-01T00:00:01.250000Z", "2026-01-01T01:00:01.25+01:00",
        ]
        let positions = try times.map { try AsOfOptions.parse(["--time", $0]).resolve(in: log).position }
        #expect(positions == [1, 2, 1, 0, 0, 1, 2, 2])
    }

    @Test func everyProductGetsEveryOperatorCommand() {
        let names = OperatorCommands<TallyProduct>.all.map { $0.configuration.commandName ?? "" }
        #expect(names == ["replay", "audit", "backup", "backup-keys", "restore", "verify", "log-copy", "erase", "seal-log"])
    }
}
