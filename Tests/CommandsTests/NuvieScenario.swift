import NuvieCommands
import NuvieDomain
import TestSupport

/// Nuvie's commands over the shared given/when/then scenario.
typealias NuvieScenario = CommandScenario<NuvieCatalog, NuvieCommandService>

extension CommandScenario where Catalog == NuvieCatalog, Commands == NuvieCommandService {
    convenience init() throws {
        try self.init { NuvieCommandService(store: $0) }
    }

    /// Given users 1…n registered, and the films with these ids in the catalog.
    func given(users: Int64, films: [Int64] = []) async throws {
        try await given((1...users).map { (NuvieStreams.user($0), .userRegistered(UserRegistered(userId: $0, name: "User \($0)", email: nil, avatarUrl: nil, provider: .dev))) })
        try await given(films.map { (NuvieStreams.movie($0), .movieAdded(MovieAdded(movieId: $0, title: "Film \($0)", genres: ["Drama"], year: 2000, tmdbId: nil, imdbId: nil))) })
    }
}
