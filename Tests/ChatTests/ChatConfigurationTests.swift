import ChatApp
import Foundation
import HTTPServing
import Testing

/// Settings are checked when the server starts, each one named when it is wrong.
@Suite struct ChatConfigurationTests {
    static func configured(_ values: [String: String]) throws -> ChatConfiguration {
        var configuration = ChatConfiguration(dataDirectory: FileManager.default.temporaryDirectory)
        try configuration.applyEverySetting(EnvironmentSettings(values), prefix: "CHAT")
        return configuration
    }

    @Test func aModelSettingWithoutAModelServerIsRefusedNotIgnored() throws {
        #expect(throws: InvalidSetting(name: "CHAT_OPENAI_TEMPERATURE", value: "3", expected: "a number from 0 to 2")) {
            try Self.configured(["CHAT_OPENAI_TEMPERATURE": "3"])
        }
        #expect(throws: InvalidSetting.self) { try Self.configured(["CHAT_OPENAI_TEMPERATURE": "1"]) }
        #expect(throws: InvalidSetting.self) { try Self.configured(["CHAT_OPENAI_MODEL": "gpt-4o"]) }
        let served = try Self.configured(["CHAT_OPENAI_BASE_URL": "http://127.0.0.1:8088/v1", "CHAT_OPENAI_TEMPERATURE": "1"])
        #expect(served.assistant?.temperature == 1)
        #expect(try Self.configured([:]).assistant == nil)
    }
}
