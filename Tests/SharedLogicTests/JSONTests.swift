import Testing
import TestSupport
@testable import SharedLogic

@Suite struct JSONParserTests {
    @Test func parsesEveryKindOfValueAndKeepsOrderAndLiterals() throws {
        let value = try JSONParser.parse(#"{"b": [1, -0.5e3, true, false, null], "a": "x\u00e9\n\"", "c": {}}"#)
        #expect(value.objectMembers?.map(\.key) == ["b", "a", "c"])
        #expect(value["b"] == .array([.number("1"), .number("-0.5e3"), .bool(true), .bool(false), .null]))
        #expect(value["a"] == .string("xé\n\""))
        #expect(value["c"] == .object([]))
    }

    @Test func surrogatePairsDecode() throws {
        #expect(try JSONParser.parse(#""\ud83d\ude00""#) == .string("😀"))
    }

    @Test(arguments: [
        ("", "empty"),
        ("{", "ends inside an object"),
        (#"{"a": 1,}"#, "expected a quoted key"),
        (#"{"a": 1 "b": 2}"#, "expected ',' or '}'"),
        (#"{"a": 1, "a": 2}"#, "appears twice"),
        ("[1, 2", "ends inside an array"),
        ("01", "leading zeros"),
        ("1.", "decimal point"),
        ("tru", "unknown word"),
        ("\"abc", "ends inside a string"),
        ("\"a\u{01}\"", "control character"),
        ("\"\\x\"", "unknown escape"),
        (#""\ud83d""#, "high surrogate"),
        ("{} {}", "after the JSON value"),
        ("\u{FEFF}{}", "byte order mark"),
        ("\0", "NUL"),
        ("// c\n{}", "unexpected character"),
    ])
    func rejectsBadText(text: String, expected: String) {
        #expect {
            try JSONParser.parse(text)
        } throws: { error in
            "\(error)".contains(expected)
        }
    }

    /// Small objects are checked by a scan and big ones by a set: a repeat is found either way,
    /// wherever it is, and distinct keys are never taken for repeats.
    @Test(arguments: [2, JSONParser.scannedKeys, JSONParser.scannedKeys + 1, 100])
    func repeatedKeysAreFoundInObjectsOfAnySize(count: Int) throws {
        let keys = (0..<count).map { "\"k\($0)\": \($0)" }
        let distinct = try JSONParser.parse("{" + keys.joined(separator: ", ") + "}")
        #expect(distinct.objectMembers?.count == count)
        for repeated in [0, count - 1] {
            let text = "{" + (keys + ["\"k\(repeated)\": true"]).joined(separator: ", ") + "}"
            #expect {
                try JSONParser.parse(text)
            } throws: { error in
                "\(error)".contains("\"k\(repeated)\" appears twice")
            }
        }
    }

    @Test func errorsSayWhere() {
        do {
            _ = try JSONParser.parse("{\n  \"a\": tru\n}")
            Issue.record("parsed")
        } catch {
            #expect(error.line == 2)
            #expect(error.column == 8)
        }
    }

    @Test func invalidUTF8IsRejected() {
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parse([0x22, 0xFF, 0x22]) }
    }

    @Test func deepNestingIsRefusedNotACrash() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect { try JSONParser.parse(deep) } throws: { "\($0)".contains("nested") }
        let ok = String(repeating: "[", count: JSONParser.maximumDepth) + String(repeating: "]", count: JSONParser.maximumDepth)
        #expect(throws: Never.self) { try JSONParser.parse(ok) }
    }

    @Test func randomBytesNeverCrash() {
        var generator = SeededRandom(seed: 7)
        let alphabet = Array(#"{}[]",:0123456789-.eE truefalsn\u"#.utf8) + [0, 0xC3, 0xA9, 0xFF]
        for _ in 0..<20_000 {
            let length = Int(generator.next() % 40)
            let bytes = (0..<length).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] }
            _ = try? JSONParser.parse(bytes)
        }
    }
}

@Suite struct JSONWriterTests {
    @Test func prettyRoundTripsAndEscapes() throws {
        let value = JSONValue.object([
            JSONMember("s", .string("q\"b\\n\n\t\u{01}\u{2028}é")),
            JSONMember("n", .number("1e5")),
            JSONMember("a", .array([])),
            JSONMember("o", .object([JSONMember("x", .null)])),
        ])
        let text = JSONWriter.pretty(value)
        #expect(text.hasSuffix("}\n"))
        #expect(text.contains("\"s\": \"q\\\"b\\\\n\\n\\t\\u0001\\u2028é\""))
        #expect(try JSONParser.parse(text) == value)
        #expect(try JSONParser.parse(JSONWriter.compact(value)) == value)
        #expect(!JSONWriter.compact(value).contains("\n"))
    }

    @Test func settingReplacesInPlaceAndAppendsNewKeys() {
        let doc = JSONValue.object([JSONMember("a", .int(1)), JSONMember("b", .int(2))])
        #expect(doc.setting("a", to: .int(3)).objectMembers?.map(\.key) == ["a", "b"])
        #expect(doc.setting("a", to: .int(3))["a"] == .int(3))
        #expect(doc.setting("c", to: .null).objectMembers?.map(\.key) == ["a", "b", "c"])
        #expect(doc.removing("a").objectMembers?.map(\.key) == ["b"])
    }
}

@Suite struct OutputSafetyTests {
    @Test func jsonEscapesC1AndBidiControls() {
        let text = JSONWriter.compact(.string("a\u{1B}]52;c;x\u{07}\u{9B}31m\u{202E}b\u{2066}é"))
        #expect(text == "\"a\\u001b]52;c;x\\u0007\\u009b31m\\u202eb\\u2066é\"")
    }

    @Test func printableTextKeepsLinesAndShowsEveryOtherControl() {
        #expect(TerminalText.printable("line 1\n\tline 2 é") == "line 1\n\tline 2 é")
        #expect(TerminalText.printable("x\u{1B}[2Jy\u{9B}z\u{202E}") == "x\\u{1B}[2Jy\\u{9B}z\\u{202E}")
    }
}
