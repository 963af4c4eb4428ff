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

    /// Each mistake people make by hand, with where it is and the fix.
    @Test(arguments: [
        ("", "line 1, column 1: the file is empty — write {} in it for the defaults, or remove it"),
        ("{", "line 1, column 2: the text ends inside an object (opened at line 1, column 1) — add the closing }"),
        (#"{"a": 1,}"#, "line 1, column 8: a comma before } — remove it"),
        ("{\n  \"a\": 1,\n  \"b\": [1, 2,],\n}", "line 3, column 13: a comma before ] — remove it"),
        (#"{"a": 1 "b": 2}"#, "line 1, column 9: a comma is missing before this key — add a comma"),
        (#"{"a": 1, "a": 2}"#, "line 1, column 10: the key \"a\" appears twice — keep one of them"),
        ("[1, 2", "line 1, column 6: the text ends inside a list (opened at line 1, column 1) — add the closing ]"),
        ("[1 2]", "line 1, column 4: expected a comma or ]"),
        ("01", "line 1, column 2: a number with a leading zero — remove the leading zero"),
        ("1.", "line 1, column 3: a decimal point without digits after it"),
        ("tru", "line 1, column 1: the word tru — use true, false or null"),
        (#"{"a": yes}"#, "line 1, column 7: the word yes — use true, false or null, or put text in double quotes"),
        ("{'a': 1}", "line 1, column 2: a key in single quotes — use double quotes"),
        ("{\"a\": 'x'}", "line 1, column 7: a text in single quotes — use double quotes"),
        ("{a: 1}", "line 1, column 2: the key a has no quotes — put it in double quotes: \"a\""),
        (#"{"a" 1}"#, "line 1, column 6: no ':' after the key \"a\""),
        ("\"abc", "line 1, column 5: the text ends inside a string — add the closing \""),
        ("\"ab\nc\"", "line 1, column 4: a line break inside a string"),
        ("\"a\u{01}\"", "line 1, column 3: a control character inside a string"),
        ("\"\\x\"", "line 1, column 2: an unknown escape \\x in a string"),
        (#""\ud83d""#, "high surrogate"),
        ("{} {}", "line 1, column 4: more text after the end of the settings — remove it"),
        ("\0", "line 1, column 1: a NUL byte"),
        ("// c\n{}", "line 1, column 1: a comment — remove it: JSON has no comments"),
        ("{\"a\": 1 /* b */}", "line 1, column 9: a comment — remove it"),
        ("{\"a\": 1} // b", "line 1, column 10: a comment — remove it"),
        ("{\"a\": [1, /* b */ 2]}", "line 1, column 11: a comment — remove it"),
        ("{\"é\": x}", "line 1, column 7: the word x"),
    ])
    func rejectsBadText(text: String, expected: String) {
        #expect {
            try JSONParser.parse(text)
        } throws: { error in
            "\(error)".hasPrefix(expected) || !expected.hasPrefix("line") && "\(error)".contains(expected)
        }
    }

    /// A UTF-8 byte order mark is skipped (RFC 8259 §8.1 lets a parser ignore one).
    @Test func aByteOrderMarkIsSkippedAndUTF16IsNamed() throws {
        #expect { try JSONParser.parse([0xFF, 0xFE, 0x7B, 0x00, 0x7D, 0x00]) } throws: {
            "\($0)" == "line 1, column 1: the file is UTF-16 — save it as UTF-8"
        }
        #expect(try JSONParser.parse("\u{FEFF}{\"a\": 1}") == .object([JSONMember("a", .int(1))]))
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parse("{}\u{FEFF}") }
    }

    /// Where a value starts, by the keys leading to it; nil when there is none.
    @Test func valuesAreLocatedByTheirKeys() {
        let text = Array("\u{FEFF}{\n  \"a\": {\"b\": [1, 2]},\n  \"c\": true\n}".utf8)
        func at(_ keys: [String]) -> [Int]? { JSONParser.location(ofValueAt: keys, in: text).map { [$0.line, $0.column] } }
        #expect(at([]) == [1, 1])
        #expect(at(["a", "b"]) == [2, 14])
        #expect(at(["c"]) == [3, 8])
        #expect(at(["d"]) == nil)
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
