import HTTPServing
import NuvieRecommendations
import NuvieAPI
import NuvieApp
import Foundation
import Testing
import TestSupport

@Suite(.timeLimit(.minutes(3))) struct EnvironmentSettingsTests {
    private func configured(_ values: [String: String]) throws -> NuvieConfiguration {
        var configuration = NuvieConfiguration(dataDirectory: URL(fileURLWithPath: "/tmp/unused"))
        try configuration.applyEverySetting(EnvironmentSettings(values), prefix: "NUVIE")
        return configuration
    }

    @Test func aValueThatCannotBeUsedStopsTheStartNamingTheVariable() throws {
        for (name, value) in [
            ("NUVIE_RATE_LIMIT_PER_MINUTE", "-5"), ("NUVIE_RATE_LIMIT_PER_MINUTE", "abc"), ("NUVIE_RATE_LIMIT_PER_MINUTE", "0.5"),
            ("NUVIE_RATE_LIMIT_BURST", "ten"), ("NUVIE_READ_YOUR_WRITES_TIMEOUT_MS", "0"), ("NUVIE_AI_TIMEOUT_MS", "-1"),
            ("NUVIE_AI_SERVICE_URL", "ftp://x"), ("NUVIE_MODEL_RETRAIN_SECONDS", "1e3"), ("NUVIE_MODEL_MAXIMUM_FILMS", "8"), ("NUVIE_APPLE_JWKS", "/no/such/file"), ("NUVIE_APPLE_JWKS", "http://appleid.example.com/auth/keys"),
            ("NUVIE_JWT_SECRET_FILE", "/no/such/file"), ("NUVIE_HTTP_MAX_CONNECTIONS", "0"), ("NUVIE_HTTP_IDLE_TIMEOUT_SECONDS", "forever"), ("NUVIE_HTTP_TRUSTED_PROXIES", "10.0.0.0/40"),
            ("NUVIE_RECOMMENDER", "floor=2"), ("NUVIE_RECOMMENDER", "lambda=250 bogus=1"),
        ] {
            #expect(throws: InvalidSetting.self, "\(name)=\(value)") { try configured([name: value]) }
            do {
                _ = try configured([name: value])
            } catch let error as InvalidSetting {
                #expect(error.description.contains(name.replacingOccurrences(of: "_FILE", with: "")))
            }
        }
        #expect(throws: InvalidSetting.self) { try EnvironmentSettings(["NUVIE_DEMO": "maybe"]).flag("NUVIE_DEMO") }
        #expect(throws: InvalidSetting.self) { try configured(["NUVIE_ADMIN_TOKEN": "a", "NUVIE_ADMIN_TOKEN_FILE": "/etc/hostname"]) }
    }

    @Test func validValuesAreTakenAndZeroTurnsTheRateLimitOff() throws {
        let configuration = try configured([
            "NUVIE_RATE_LIMIT_PER_MINUTE": "120", "NUVIE_RATE_LIMIT_BURST": "10", "NUVIE_READ_YOUR_WRITES_TIMEOUT_MS": "250",
            "NUVIE_AI_SERVICE_URL": "http://127.0.0.1:9000", "NUVIE_HTTP_HEADER_TIMEOUT_SECONDS": "3", "NUVIE_HTTP_MAX_CONNECTIONS": "64", "NUVIE_HTTP_TRUSTED_PROXIES": "127.0.0.1, 10.0.0.0/8",
            "NUVIE_MODEL_MAXIMUM_FILMS": "2000", "NUVIE_RECOMMENDER": "lambda=500 minimum-ratings=20 floor=1",
        ])
        #expect(configuration.modelParameters.maximumFilms == 2_000)
        #expect(configuration.modelParameters.lambda == 500 && configuration.modelParameters.minimumRatings == 20)
        #expect(configuration.recommender.recencyFloor == 1 && configuration.recommender.genreShare == Scorer.defaultGenreShare)
        #expect(configuration.connections.headerTimeout == .seconds(3) && configuration.connections.maxConnections == 64)
        #expect(configuration.connections.trustedProxies == (try TrustedProxies(parsing: "127.0.0.1,10.0.0.0/8")))
        #expect(configuration.rateLimit == RateLimit(requestsPerMinute: 120, burst: 10))
        #expect(configuration.readYourWritesTimeout == .milliseconds(250))
        #expect(configuration.aiServiceURL?.absoluteString == "http://127.0.0.1:9000")
        #expect(try configured(["NUVIE_RATE_LIMIT_PER_MINUTE": "0"]).rateLimit == nil)
        #expect(try configured([:]).rateLimit == RateLimit.perPerson)
        let misspelt = EnvironmentSettings(["NUVIE_RATE_LIMT": "5", "NUVIE_RATE_LIMIT_BURST": "5", "NUVIE_PORT": "1", "SAVRY_PORT": "3000"])
        var read = NuvieConfiguration(dataDirectory: URL(fileURLWithPath: "/tmp/unused"))
        try read.apply(misspelt)
        #expect(misspelt.unreadNames(prefix: "NUVIE") == ["NUVIE_RATE_LIMT"])
    }

    @Test func theProductReadsNoneOfTheEnginesSettings() throws {
        var configuration = NuvieConfiguration(dataDirectory: URL(fileURLWithPath: "/tmp/unused"))
        #expect(try EnvironmentNameCheck.enginesNamesReadByTheProduct(prefix: "NUVIE") { try configuration.apply($0) } == [])
    }

    /// Outside demo mode nothing generates a secret: a server missing one stops before it imports or
    /// trains anything, naming what to set.
    @Test func aMissingSecretStopsTheStartNamingTheSetting() async throws {
        let directory = try TemporaryDirectory()
        var configuration = NuvieConfiguration.testing(dataDirectory: directory.url)
        configuration.demoMode = false
        configuration.masterKey = Data(repeating: 7, count: 32).base64EncodedString()
        configuration.jwtSecret = nil
        await #expect { _ = try await buildNuvieApplication(configuration: configuration) } throws: { error in
            "\(error)" == "No NUVIE_JWT_SECRET: set NUVIE_JWT_SECRET_FILE (or NUVIE_JWT_SECRET), or run in demo mode"
        }
        configuration.jwtSecret = "test-secret-test-secret-test-secret"
        configuration.aiServiceURL = URL(string: "http://127.0.0.1:9")
        await #expect { _ = try await buildNuvieApplication(configuration: configuration) } throws: { error in
            "\(error)" == "NUVIE_AI_SERVICE_URL needs NUVIE_INTERNAL_TOKEN: set NUVIE_INTERNAL_TOKEN_FILE (or NUVIE_INTERNAL_TOKEN)"
        }
        // Each refusal closed what it had opened: the stores open again in this process.
        configuration.aiServiceURL = nil
        configuration.adminToken = "operator-token-operator-token-operator"
        _ = try await buildNuvieApplication(configuration: configuration)
    }
}
