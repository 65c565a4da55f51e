import Hummingbird
import NuvieProjections

/// `GET /genres`: the catalog's genres for the discover screen's filter, with film counts.
struct GenresController: Sendable {
    let movies: MovieQueries

    struct GenresResponse: ResponseEncodable, Sendable {
        struct Genre: Encodable, Sendable {
            var name: String
            var movieCount: Int
        }
        var genres: [Genre]
    }

    func list(_ request: Request, context: NuvieSignedInContext) async throws -> GenresResponse {
        return GenresResponse(genres: try movies.genres().map { GenresResponse.Genre(name: $0.name, movieCount: $0.movieCount) })
    }
}
