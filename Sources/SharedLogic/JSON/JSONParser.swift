/// Why a JSON text could not be read: where reading stopped (line and column, counted in
/// characters from 1), what is there, and how to fix it.
public struct JSONSyntaxError: Error, Equatable, Sendable, CustomStringConvertible {
    public let message: String
    /// What to do about it (`remove it`).
    public let fix: String
    public let line: Int
    public let column: Int
    public var description: String { "\(place) — \(fix)" }
    /// Where and what, without the fix (which speaks of a file the person can edit).
    public var place: String { "line \(line), column \(column): \(message)" }
}

/// A strict RFC 8259 parser over UTF-8 bytes: no comments, no trailing commas, no duplicate keys,
/// a nesting limit, and for every error its position and the fix. A leading UTF-8 byte order
/// mark is skipped (RFC 8259 §8.1 lets a parser ignore it).
public struct JSONParser {
    public static let maximumDepth = 64
    /// Objects up to this many members are checked for repeated keys by a scan.
    static let scannedKeys = 16

    private let bytes: [UInt8]
    private var index = 0
    private var depth = 0
    /// `location(ofValueAt:in:)`: the keys leading to the value looked for, the keys leading to
    /// the value being read, and where the one looked for begins.
    private var target: [String]?
    private var path: [String] = []
    private var found: Int?

    /// Parses one JSON value that makes up the whole text (surrounding whitespace allowed).
    public static func parse(_ bytes: [UInt8]) throws(JSONSyntaxError) -> JSONValue {
        var parser = JSONParser(bytes: bytes)
        return try parser.parseDocument()
    }

    public static func parse(_ text: String) throws(JSONSyntaxError) -> JSONValue {
        try parse(Array(text.utf8))
    }

    /// Where the value reached by `keys` (object keys from the top; none: the top-level value)
    /// begins, as a line and column; nil when the text has no such value.
    public static func location(ofValueAt keys: [String], in bytes: [UInt8]) -> (line: Int, column: Int)? {
        var parser = JSONParser(bytes: bytes)
        parser.target = keys
        _ = try? parser.parseDocument()
        guard let found = parser.found else { return nil }
        return parser.position(of: found)
    }

    private init(bytes: [UInt8]) { self.bytes = bytes }

    private mutating func parseDocument() throws(JSONSyntaxError) -> JSONValue {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
        if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) {
            throw error("the file is UTF-16", fix: "save it as UTF-8")
        }
        skipWhitespace()
        if index == bytes.count {
            throw error("the file is empty", fix: "write {} in it for the defaults, or remove it")
        }
        if target == [] { found = index }
        let value = try parseValue()
        skipWhitespace()
        if index != bytes.count {
            if let comment = commentHere() { throw comment }
            throw error("more text after the end of the settings", fix: "remove it: the file holds one JSON value")
        }
        return value
    }

    /// The line and column (from 1, in characters, a byte order mark not counted) of byte `offset`.
    private func position(of offset: Int) -> (line: Int, column: Int) {
        var line = 1
        var column = 1
        let start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        for byte in bytes[min(start, offset)..<min(offset, bytes.count)] {
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return (line, column)
    }

    private func error(_ message: String, fix: String, at offset: Int? = nil) -> JSONSyntaxError {
        let (line, column) = position(of: offset ?? index)
        return JSONSyntaxError(message: message, fix: fix, line: line, column: column)
    }

    /// A `//` or `/*` comment at the current position, as the error to report.
    private func commentHere() -> JSONSyntaxError? {
        guard current == UInt8(ascii: "/"), index + 1 < bytes.count,
              bytes[index + 1] == UInt8(ascii: "/") || bytes[index + 1] == UInt8(ascii: "*") else { return nil }
        return error("a comment", fix: "remove it: JSON has no comments")
    }

    /// The error for a character that cannot start a value (or a key, `forKey`).
    private func unexpected(forKey: Bool = false) -> JSONSyntaxError {
        if let comment = commentHere() { return comment }
        guard let byte = current else { return error("the text ends too early", fix: "complete it") }
        if byte == UInt8(ascii: "'") {
            return error(forKey ? "a key in single quotes" : "a text in single quotes", fix: "use double quotes")
        }
        if isLetter(byte) {
            var end = index
            while end < bytes.count, isLetter(bytes[end]) || isDigit(bytes[end]) { end += 1 }
            let word = String(decoding: bytes[index..<min(end, index + 40)], as: UTF8.self)
            if forKey { return error("the key \(word) has no quotes", fix: "put it in double quotes: \"\(word)\"") }
            return error("the word \(word)", fix: "use true, false or null, or put text in double quotes")
        }
        if byte == 0 { return error("a NUL byte", fix: "the file holds binary data: restore it, or remove it") }
        if forKey { return error("expected a key in double quotes", fix: "write \"key\": value") }
        // A bracket is named, not shown: a lone ( or ) in a message reads as one left open.
        let names: [UInt8: String] = [UInt8(ascii: "("): "an opening parenthesis", UInt8(ascii: ")"): "a closing parenthesis"]
        let what = names[byte] ?? TerminalText.quoted(String(decoding: [byte], as: UTF8.self))
        return error("a value cannot start with \(what)",
                     fix: "write a value: text in double quotes, a number, true, false, null, {…} or […]")
    }

    private func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || byte == UInt8(ascii: "_")
    }

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func skipWhitespace() {
        while let byte = current, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 {
            index += 1
        }
    }

    private mutating func parseValue() throws(JSONSyntaxError) -> JSONValue {
        guard let byte = current else { throw error("the text ends where a value should be", fix: "add the value") }
        switch byte {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectWord("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectWord("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectWord("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw unexpected()
        }
    }

    private mutating func expectWord(_ word: String) throws(JSONSyntaxError) {
        let start = index
        for expected in word.utf8 {
            guard current == expected else {
                index = start
                throw unexpected()
            }
            index += 1
        }
    }

    private mutating func enter() throws(JSONSyntaxError) {
        depth += 1
        if depth > Self.maximumDepth {
            throw error("nested more than \(Self.maximumDepth) levels deep", fix: "settings need no such depth: remove the extra brackets")
        }
    }

    private mutating func parseObject() throws(JSONSyntaxError) -> JSONValue {
        try enter()
        defer { depth -= 1 }
        let open = index
        index += 1
        var members: [JSONMember] = []
        // Duplicate keys: a scan is enough for the small objects notif reads; a set only for
        // big ones (which also keeps Set's start-up cost off the page's first frame).
        var keys: Set<String>?
        skipWhitespace()
        if current == UInt8(ascii: "}") {
            index += 1
            return .object([])
        }
        var comma: Int?
        while true {
            skipWhitespace()
            if current == nil { throw endsInside("an object", opened: open, closer: "}") }
            if current == UInt8(ascii: "}"), let comma { throw error("a comma before }", fix: "remove it", at: comma) }
            guard current == UInt8(ascii: "\"") else { throw unexpected(forKey: true) }
            let keyStart = index
            let key = try parseString()
            let repeated: Bool
            if members.count < Self.scannedKeys {
                repeated = members.contains { $0.key == key }
            } else {
                if keys == nil { keys = Set(members.map(\.key)) }
                repeated = !keys!.insert(key).inserted
            }
            if repeated {
                throw error("the key \(TerminalText.quoted(key)) appears twice", fix: "keep one of them", at: keyStart)
            }
            skipWhitespace()
            guard current == UInt8(ascii: ":") else {
                throw error("no ':' after the key \(TerminalText.quoted(key))", fix: "write \(TerminalText.quoted(key)): value")
            }
            index += 1
            skipWhitespace()
            if target != nil { path.append(key) }
            if target != nil && path == target! { found = index }
            members.append(JSONMember(key, try parseValue()))
            if target != nil { path.removeLast() }
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","):
                comma = index
                index += 1
            case UInt8(ascii: "}"): index += 1; return .object(members)
            case nil: throw endsInside("an object", opened: open, closer: "}")
            case UInt8(ascii: "\""): throw error("a comma is missing before this key", fix: "add a comma after the value before it")
            default:
                if let comment = commentHere() { throw comment }
                throw error("expected a comma or }", fix: "put a comma between two entries, and } after the last")
            }
        }
    }

    /// The text ends before the `closer` of what opened at byte `opened`.
    private func endsInside(_ what: String, opened: Int, closer: String) -> JSONSyntaxError {
        let (line, column) = position(of: opened)
        return error("the text ends inside \(what) (opened at line \(line), column \(column))", fix: "add the closing \(closer)")
    }

    private mutating func parseArray() throws(JSONSyntaxError) -> JSONValue {
        try enter()
        defer { depth -= 1 }
        let open = index
        index += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if current == UInt8(ascii: "]") {
            index += 1
            return .array([])
        }
        var comma: Int?
        while true {
            skipWhitespace()
            if current == UInt8(ascii: "]"), let comma { throw error("a comma before ]", fix: "remove it", at: comma) }
            if current == nil { throw endsInside("a list", opened: open, closer: "]") }
            elements.append(try parseValue())
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","):
                comma = index
                index += 1
            case UInt8(ascii: "]"): index += 1; return .array(elements)
            case nil: throw endsInside("a list", opened: open, closer: "]")
            default:
                if let comment = commentHere() { throw comment }
                throw error("expected a comma or ]", fix: "put a comma between two values, and ] after the last")
            }
        }
    }

    private mutating func parseNumber() throws(JSONSyntaxError) -> JSONValue {
        let start = index
        if current == UInt8(ascii: "-") { index += 1 }
        guard let first = current, isDigit(first) else { throw error("a '-' without a number", fix: "put digits after it") }
        if first == UInt8(ascii: "0") {
            index += 1
            if let next = current, isDigit(next) { throw error("a number with a leading zero", fix: "remove the leading zero") }
        } else {
            skipDigits()
        }
        if current == UInt8(ascii: ".") {
            index += 1
            guard let next = current, isDigit(next) else { throw error("a decimal point without digits after it", fix: "add a digit after it, or remove it") }
            skipDigits()
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            index += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
            guard let next = current, isDigit(next) else { throw error("an exponent without digits", fix: "add digits after the e, or remove it") }
            skipDigits()
        }
        return .number(String(decoding: bytes[start..<index], as: UTF8.self))
    }

    private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    private mutating func skipDigits() {
        while let byte = current, isDigit(byte) { index += 1 }
    }

    private mutating func parseString() throws(JSONSyntaxError) -> String {
        index += 1
        // Fast path: printable ASCII with no escapes, which is every key and value notif writes.
        var scan = index
        while scan < bytes.count {
            let byte = bytes[scan]
            if byte == UInt8(ascii: "\"") {
                let text = String(decoding: bytes[index..<scan], as: UTF8.self)
                index = scan + 1
                return text
            }
            if byte == UInt8(ascii: "\\") || byte < 0x20 || byte >= 0x80 { break }
            scan += 1
        }
        var scalars = String.UnicodeScalarView()
        var runStart = index
        func flushRun(_ parser: JSONParser, upTo end: Int) throws(JSONSyntaxError) {
            guard runStart < end else { return }
            guard let text = String(validating: parser.bytes[runStart..<end], as: UTF8.self) else {
                throw parser.error("bytes that are not UTF-8", fix: "save the file as UTF-8")
            }
            scalars.append(contentsOf: text.unicodeScalars)
        }
        while true {
            guard let byte = current else { throw error("the text ends inside a string", fix: "add the closing \"") }
            switch byte {
            case UInt8(ascii: "\""):
                try flushRun(self, upTo: index)
                index += 1
                return String(scalars)
            case UInt8(ascii: "\\"):
                try flushRun(self, upTo: index)
                index += 1
                scalars.append(try parseEscape())
                runStart = index
            case 0..<0x20:
                if byte == UInt8(ascii: "\n") { throw error("a line break inside a string", fix: "close the string with \" before it") }
                throw error(byte == 0 ? "a NUL byte inside a string" : "a control character inside a string", fix: "remove it, or write it as \\u00XX")
            default:
                index += 1
            }
        }
    }

    private mutating func parseEscape() throws(JSONSyntaxError) -> Unicode.Scalar {
        guard let byte = current else { throw error("the text ends inside a string", fix: "add the closing \"") }
        index += 1
        switch byte {
        case UInt8(ascii: "\""): return "\""
        case UInt8(ascii: "\\"): return "\\"
        case UInt8(ascii: "/"): return "/"
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            let high = try parseHex4()
            if (0xD800..<0xDC00).contains(high) {
                guard current == UInt8(ascii: "\\"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "u") else {
                    throw error("a lone UTF-16 high surrogate", fix: "follow it with its low surrogate \\uDC00-\\uDFFF, or remove it")
                }
                index += 2
                let low = try parseHex4()
                guard (0xDC00..<0xE000).contains(low) else { throw error("a bad UTF-16 surrogate pair", fix: "write the character itself") }
                return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))!
            }
            guard let scalar = Unicode.Scalar(high) else { throw error("a lone UTF-16 low surrogate", fix: "write the character itself") }
            return scalar
        default:
            index -= 2
            throw error("an unknown escape \\\(TerminalText.safe(String(Character(Unicode.Scalar(byte))))) in a string", fix: "write a backslash as \\\\")
        }
    }

    private mutating func parseHex4() throws(JSONSyntaxError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = current else { throw error("the text ends inside a string", fix: "add the closing \"") }
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw error("a \\u escape without four hex digits", fix: "write \\u and four digits 0-9, a-f")
            }
            value = value * 16 + digit
            index += 1
        }
        return value
    }
}
