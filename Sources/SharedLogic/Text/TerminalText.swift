/// Text from files and servers, made safe to print in a terminal message: control characters
/// (C0, DEL, C1) and bidirectional overrides are shown as `\u{1B}`-style escapes, so a settings
/// file or a server answer can never send escape sequences to the terminal, and long values are
/// cut so one bad value cannot flood the screen.
public enum TerminalText {
    /// `text` with every control character escaped, cut after `limit` characters (with `…` and
    /// the full length).
    public static func safe(_ text: String, limit: Int = 80) -> String {
        var out = ""
        var count = 0
        for scalar in text.unicodeScalars {
            if count == limit {
                return out + "… (\(text.unicodeScalars.count) characters)"
            }
            if needsEscape(scalar) {
                out += "\\u{" + Hex.of(scalar.value).uppercased() + "}"
            } else {
                out.unicodeScalars.append(scalar)
            }
            count += 1
        }
        return out
    }

    /// `text` for a terminal: every control character escaped as in `safe`, except newlines and
    /// tabs (which lay out messages), never cut.
    public static func printable(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { needsEscape($0) && $0 != "\n" && $0 != "\t" }) else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            if needsEscape(scalar) && scalar != "\n" && scalar != "\t" {
                out += "\\u{" + Hex.of(scalar.value).uppercased() + "}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// `safe(text)` in double quotes (a quote inside is escaped too).
    public static func quoted(_ text: String, limit: Int = 80) -> String {
        "\"" + safe(text, limit: limit).replacing("\"", with: "\\\"") + "\""
    }

    /// Whether `scalar` is one that must never reach a terminal or a notification as is: C0
    /// controls, DEL, C1 controls, and bidirectional overrides, embeddings, isolates and marks.
    public static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        let v = scalar.value
        return v < 0x20 || (0x7F...0x9F).contains(v) || (0x202A...0x202E).contains(v) || (0x2066...0x2069).contains(v)
            || v == 0x200E || v == 0x200F || v == 0x061C
    }
}
