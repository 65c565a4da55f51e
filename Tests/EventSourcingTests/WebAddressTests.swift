import EventSourcing
import Testing

/// What an app may be given to load as an image: Nuvie's `avatar_url`, Savry's `imageUrl`.
@Suite struct WebAddressTests {
    @Test(arguments: [
        "https://img.example/a.png", "HTTPS://IMG.EXAMPLE/a.png", "hTTp://x.y", "http://127.0.0.1:8080/x", "http://[::1]/x",
        "https://cdn-1.example.com:443/a/b.png?size=2&v=3#top", "https://xn--r8jz45g.jp/a.png",
        "https://my_bucket.s3.example/a.png", "https://example.com./a.png",
    ])
    func anHTTPAddressNamingAHostIsTaken(_ text: String) {
        #expect(WebAddress.isHTTP(text), "\(text)")
    }

    @Test(arguments: [
        "ftp://x.example/a.png", "http://", "https://", "https:///a.png", "http://%00/", "http://example.com:99999/", "http://./",
        "http://-/", "http://a-.example/", "http://example.com\\@evil.com/", "https://example.com/a b.png", "img.example/a.png", "",
        "https://cdn.example@evil.example/a.png", "https://user:pw@img.example/a.png", "http://../",
    ])
    func anythingElseIsRefused(_ text: String) {
        #expect(!WebAddress.isHTTP(text), "\(text)")
    }
}
