import HTTPServing
import Hummingbird
import NuvieProjections

/// `POST /auth/login` and `/auth/refresh`: the contract's `access_token` and `user`, plus the refresh
/// token and the access token's lifetime.
struct LoginResponse: ResponseEncodable, Sendable {
    struct User: Encodable, Sendable {
        var userId: Int64
        var name: String
        @Nullable var avatarUrl: String?
        @Nullable var email: String?
    }
    var accessToken: String
    var refreshToken: String
    var tokenType = "Bearer"
    var expiresIn = Int(NuvieTokens.accessLifetime)
    var user: User

    init(tokens: NuvieTokens.Pair, user: UserSummary) {
        accessToken = tokens.accessToken
        refreshToken = tokens.refreshToken
        self.user = User(userId: user.userId, name: user.name, avatarUrl: user.avatarUrl, email: user.email)
    }
}
