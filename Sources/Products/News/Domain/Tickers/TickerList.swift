/// The tickers the product knows (`sp500.tsv`, see `Tickers/README.md`): what preferences may hold
/// and what articles are searched for.
public struct TickerList: Sendable {
    public struct Company: Sendable, Equatable {
        public var symbol: String
        public var name: String
        public var sector: String
        /// The name as articles write it: without a leading `The`, nor `Inc.`, `Corporation` and the like.
        public var shortName: String
        /// What an article may call it and be found by, spelt as `WordText` reads a text (a hyphen
        /// is a space): its short name, then any other name it goes by (`alsoCalled`), but for names
        /// too common in prose to mean the company (`ambiguousNames`).
        public var searchedNames: [String]
    }

    public let companies: [String: Company]
    /// Every company, by symbol: the order names are searched in.
    let bySymbol: [Company]
    /// The companies (indices in `bySymbol`) one of whose searched names begins with a word (the
    /// second, after `The`), or for a one-word name is it or its plural: a text can name a company
    /// only if it holds that word.
    let byNameHead: [String: [Int]]

    /// Names the press uses that are not the listed one, by symbol.
    static let alsoCalled: [String: [String]] = ["DIS": ["Disney"], "GOOG": ["Google"], "GOOGL": ["Google"], "HIG": ["The Hartford"]]

    /// Names that in most articles mean something else (a target, a ball, the word "general").
    static let ambiguousNames: Set<String> = ["Target", "Hartford", "Ball", "Match", "Block", "Visa Inc", "Public Storage", "Best", "General", "American", "United", "Southern", "Progressive", "Principal", "Equity", "Universal", "Global", "Fox", "News", "Dover", "Lennar", "Mosaic", "Ventas", "Allegion", "Corning", "Nucor", "Loews"]

    /// What a name keeps besides letters and digits, as articles are read for names.
    static let nameCharacters = "&."

    public static let sp500 = TickerList(tsv: PackageResources.sp500_tsv)

    init(tsv: [UInt8]) {
        var companies: [String: Company] = [:]
        for line in String(decoding: tsv, as: UTF8.self).split(separator: "\n").dropFirst() {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 3 else { continue }
            let shortName = Self.shortName(fields[1])
            companies[fields[0]] = Company(
                symbol: fields[0], name: fields[1], sector: fields[2], shortName: shortName,
                searchedNames: ([shortName] + (Self.alsoCalled[fields[0]] ?? [])).map(Self.spelt).filter { !Self.ambiguousNames.contains($0) }
            )
        }
        self.companies = companies
        bySymbol = companies.values.sorted { $0.symbol < $1.symbol }
        var byNameHead: [String: [Int]] = [:]
        for (index, company) in bySymbol.enumerated() {
            for name in company.searchedNames {
                let words = name.split(separator: " ")
                byNameHead[String(words.count > 1 && words[0] == "The" ? words[1] : words.first ?? ""), default: []].append(index)
                if words.count == 1 { byNameHead[name + "s", default: []].append(index) }
            }
        }
        self.byNameHead = byNameHead
    }

    public func company(_ symbol: String) -> Company? { companies[symbol] }

    /// 1–5 letters or digits, as the contract's error says.
    public static func isWellFormed(_ ticker: String) -> Bool {
        (1...5).contains(ticker.utf8.count) && ticker.utf8.allSatisfy { (0x41...0x5A).contains($0) || (0x30...0x39).contains($0) }
    }

    static func shortName(_ name: String) -> String {
        var words = name.replacingOccurrences(of: ",", with: "").split(separator: " ").map(String.init)
        let suffixes: Set<String> = ["Inc.", "Inc", "Corporation", "Corp.", "Corp", "Company", "Co.", "plc", "Ltd.", "Holdings", "Group", "N.V.", "S.A.", "Incorporated", "& Co."]
        while words.count > 1, let last = words.last, suffixes.contains(last) { words.removeLast() }
        if words.count > 1, words.first == "The" { words.removeFirst() }
        return words.joined(separator: " ")
    }

    /// `name` as `WordText` reads a text (`Coca-Cola` is `Coca Cola`, `McDonald's` is `McDonald s`).
    static func spelt(_ name: String) -> String {
        WordText(name, keeping: nameCharacters, lowercased: false).spaced.split(separator: " ").joined(separator: " ")
    }
}
