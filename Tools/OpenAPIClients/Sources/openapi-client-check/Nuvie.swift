import HTTPTypes
import NuvieClient
import OpenAPIRuntime

/// Nuvie: dev sign-in as MovieLens user 1, then reads (profile, a film, its reviews, search,
/// trending, both feeds) and writes (a rating with a review, the watchlist, a like).
@Sendable func checkNuvie(_ run: ProductCheck) async throws {
    let anonymous = run.transport()
    let open = Client(serverURL: run.serverURL, transport: anonymous.transport, middlewares: anonymous.middlewares)

    _ = try await run.call("getHealth") {
        switch try await open.getHealth() {
        case .ok(let ok): try ok.body.json
        case let other: throw unexpected(other)
        }
    }
    let session = try await run.call("login") {
        switch try await open.login(body: .json(.init(provider: .dev, user_identifier: "movielens-1"))) {
        case .ok(let ok): try ok.body.json
        case let other: throw unexpected(other)
        }
    }

    let signedIn = run.transport(headers: [.authorization: "Bearer \(session.access_token)"])
    let client = Client(serverURL: run.serverURL, transport: signedIn.transport, middlewares: signedIn.middlewares)

    let profile = try await run.call("getMyProfile") {
        switch try await client.getMyProfile() {
        case .ok(let ok): try ok.body.json
        case let other: throw unexpected(other)
        }
    }
    try expect(profile.user_id == session.user.user_id, "getMyProfile: user \(profile.user_id), signed in as \(session.user.user_id)")
    let movie = try await run.call("getMovie") {
        switch try await client.getMovie(path: .init(movie_id: 1)) {
        case .ok(let ok): try ok.body.json
        case let other: throw unexpected(other)
        }
    }
    let reviews = try await run.call("listReviews") {
        switch try await client.listReviews(path: .init(movie_id: movie.movie_id), query: .init(limit: 5)) {
        case .ok(let ok): try ok.body.json
        case let other: throw unexpected(other)
        }
    }
    _ = try await run.call("searchMovies") {
        switch try await client.searchMovies(query: .init(q: "toy", limit: 10)) {
        case .ok(let ok): try ok.body.json
        case let other: throw unexpected(other)
        }
    }
    _ = try await run.call("trendingMovies") {
        switch try await client.trendingMovies(query: .init(limit: 10)) {
        case .ok(let ok): try ok.body.json
        case let other: throw unexpected(other)
        }
    }
    _ = try await run.call("activityFeed") {
        switch try await client.activityFeed(query: .init(limit: 20)) {
        case .ok(let ok): try ok.body.json
        case let other: throw unexpected(other)
        }
    }
    _ = try await run.call("recommendationFeed") {
        switch try await client.recommendationFeed(query: .init(limit: 10)) {
        case .ok(let ok): try ok.body.json
        case let other: throw unexpected(other)
        }
    }

    let rating = Components.Schemas.RateRequest(rating: 5, comment: "Rated through the generated client", is_review: true)
    _ = try await run.call("rateMovie") {
        switch try await client.rateMovie(path: .init(movie_id: 2), body: .json(rating)) {
        case .ok(let ok): try ok.body.json
        case let other: throw unexpected(other)
        }
    }
    let listed = try await run.call("changeWatchlist") {
        switch try await client.changeWatchlist(path: .init(movie_id: 3), body: .json(.init(action: .add))) {
        case .ok(let ok): try ok.body.json
        case let other: throw unexpected(other)
        }
    }
    try expect(listed.in_watchlist, "changeWatchlist: film \(listed.movie_id) not in the watchlist after adding it")
    if let review = reviews.reviews.first {
        _ = try await run.call("likeReview") {
            switch try await client.likeReview(path: .init(review_id: review.review_id)) {
            case .ok(let ok): try ok.body.json
            case let other: throw unexpected(other)
            }
        }
    }
}
