/// Writes JSON text: `pretty` (two-space indent, one member per line, final newline) for files
/// people may read, `compact` (one line) for logs and machine output.
public enum JSONWriter {
    public static func pretty(_ value: JSONValue) -> String {
        var out = ""
        write(value, into: &out, indent: 0, pretty: true)
        out.append("\n")
        return out
    }

    public static func compact(_ value: JSONValue) -> String {
        var out = ""
        write(value, into: &out, indent: 0, pretty: false)
        return out
    }

    private static func write(_ value: JSONValue, into out: inout String, indent: Int, pretty: Bool) {
        switch value {
        case .null: out.append("null")
        case .bool(let b): out.append(b ? "true" : "false")
        case .number(let text): out.append(text)
        case .string(let s): appendQuoted(s, into: &out)
        case .array(let elements):
            writeContainer(open: "[", close: "]", count: elements.count, into: &out, indent: indent, pretty: pretty) { i, out in
                write(elements[i], into: &out, indent: indent + 1, pretty: pretty)
            }
        case .object(let members):
            writeContainer(open: "{", close: "}", count: members.count, into: &out, indent: indent, pretty: pretty) { i, out in
                appendQuoted(members[i].key, into: &out)
                out.append(pretty ? ": " : ":")
                write(members[i].value, into: &out, indent: indent + 1, pretty: pretty)
            }
        }
    }

    private static func writeContainer(
        open: String, close: String, count: Int, into out: inout String, indent: Int, pretty: Bool,
        element: (Int, inout String) -> Void
    ) {
        out.append(open)
        guard count > 0 else {
            out.append(close)
            return
        }
        for i in 0..<count {
            if i > 0 { out.append(",") }
            if pretty { newline(into: &out, indent: indent + 1) }
            element(i, &out)
        }
        if pretty { newline(into: &out, indent: indent) }
        out.append(close)
    }

    private static func newline(into out: inout String, indent: Int) {
        out.append("\n")
        out.append(String(repeating: "  ", count: indent))
    }

    /// Appends `s` as a JSON string literal; non-ASCII text stays UTF-8, except control
    /// characters (C0, DEL, C1), bidirectional controls and line separators, which are written as
    /// `\uXXXX` so JSON shown in a terminal or a log can never carry an escape sequence or reorder text.
    public static func appendQuoted(_ s: String, into out: inout String) {
        out.append("\"")
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out.append("\\\"")
            case "\\": out.append("\\\\")
            case "\n": out.append("\\n")
            case "\r": out.append("\\r")
            case "\t": out.append("\\t")
            case _ where TerminalText.needsEscape(scalar) || scalar == "\u{2028}" || scalar == "\u{2029}":
                out.append("\\u" + Hex.of(scalar.value, width: 4))
            default: out.unicodeScalars.append(scalar)
            }
        }
        out.append("\"")
    }
}
