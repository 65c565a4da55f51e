import JSONText
import Testing

@Suite(.timeLimit(.minutes(3))) struct StrictJSONTests {
    private func parse(_ text: String) -> JSONValue? {
        try? StrictJSON.parse(Array(text.utf8))
    }

    @Test func readsWhatRFC8259Allows() {
        #expect(parse(#"{"a":[1,-2.5e3,0,true,false,null],"b":{"c":"\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00"}}"#) == .object([
            "a": .array([.number(1), .number(-2500), .number(0), .bool(true), .bool(false), .null]),
            "b": .object(["c": .string("\"\\/\u{8}\u{c}\n\r\té😀")]),
        ]))
        #expect(parse(" \n{}\t") == .object([:]))
        #expect(parse(#""é""#) == .string("é"))
    }

    @Test func refusesWhatFoundationLetsThrough() {
        for text in [
            #"{"a":1,}"#, #"[1,2,]"#, #"{"a":1,"a":2}"#, #"{"a":1,"\u0061":2}"#, #"{"a":1} x"#, #"{'a':1}"#, #"{"a":01}"#,
            #"{"a":NaN}"#, #"{"a":"\ud800"}"#, #"{"a":"\udc00x"}"#, "{\"a\":\"\u{1}\"}", #"{"a":1e999}"#, #"{"a":.5}"#, #"{"a":-}"#,
            #"{"a":tru}"#, #"{"a""#, "", #"["\u+041"]"#, #"["\u-000"]"#, "[" + String(repeating: "[", count: 40) + String(repeating: "]", count: 41),
        ] {
            #expect(parse(text) == nil, "\(text)")
        }
        #expect((try? StrictJSON.parse([0x22, 0xFF, 0x22])) == nil)
    }

    /// A file said to be JSON: the same grammar, without what only a request body is refused for.
    @Test func aFileIsCheckedByTheSameGrammar() {
        let valid = { (text: String) in (try? StrictJSON.validate(Array(text.utf8))) != nil }
        for text in [#"{"a":1,"a":2}"#, #"{"a":1e999}"#, "\u{FEFF}[1]", #""text""#, String(repeating: "[", count: 200) + String(repeating: "]", count: 200)] {
            #expect(valid(text), "\(text)")
        }
        for text in [#"{"a":1,}"#, #"[1,2,]"#, #"{'a':1}"#, #"{"a":NaN}"#, #"{"a":"\ud800"}"#, "", "[1] [2]", String(repeating: "[", count: 300) + String(repeating: "]", count: 300)] {
            #expect(!valid(text), "\(text)")
        }
    }
}
