import NewsDomain
import Testing

/// Which companies an article's words name: by symbol, or by the names the press calls them.
@Suite struct TickerMentionTests {
    @Test(arguments: [
        ("The Coca-Cola Company raises its dividend", ["KO"]),
        ("Coca-Cola shares slip", ["KO"]),
        ("Disney parks lift quarterly profit", ["DIS"]),
        ("Walt Disney names a new chief executive", ["DIS"]),
        ("Google unveils a new phone", ["GOOG", "GOOGL"]),
        ("Apple and $NVDA rally", ["NVDA", "AAPL"]),
        ("Hershey raises prices", ["HSY"]),
        ("Snow closes roads around Hartford", []),
        ("The Hartford raises premiums", ["HIG"]),
        ("McDonald's opens its thousandth store in China", ["MCD"]),
        ("Travelers face delays at the airport", []),
    ])
    func anArticleNamesTheCompaniesItsWordsName(title: String, symbols: [String]) {
        #expect(ArticleReading.of(title: title, description: "", body: nil).tickers == symbols, "\(title)")
    }
}
