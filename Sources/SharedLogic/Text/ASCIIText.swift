/// Text for a terminal whose locale is not UTF-8 (LANG=C, say): notif's own typography in
/// ASCII (`—` as `-`, `…` as `...`), anything else that is not ASCII as `?`, so the terminal
/// never shows bytes it cannot decode. The page draws ASCII in such a locale too.
public enum ASCIIText {
    public static func transliterate(_ text: String) -> String {
        guard !text.utf8.allSatisfy({ $0 < 0x80 }) else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            if scalar.isASCII {
                out.unicodeScalars.append(scalar)
            } else {
                out += replacement(for: scalar)
            }
        }
        return out
    }

    /// The ASCII that stands for one character beyond ASCII: notif's typography spelled out
    /// (`…` as `...`), a combining mark as nothing, anything else as `?`.
    public static func replacement(for scalar: Unicode.Scalar) -> String {
        switch scalar {
        case "—", "–", "‐", "‑", "−", "─": return "-"
        case "…": return "..."
        case "×": return "x"
        case "‹", "←": return "<"
        case "›", "→": return ">"
        case "↑": return "^"
        case "↓": return "v"
        case "●", "•": return "*"
        case "·": return "."
        case "“", "”", "„": return "\""
        case "‘", "’": return "'"
        case "│": return "|"
        case "┌", "┐", "└", "┘": return "+"
        case "\u{A0}": return " "
        default:
            // Marks that combine with the previous character vanish; the rest is one `?` each.
            let category = scalar.properties.generalCategory
            return category == .nonspacingMark || category == .enclosingMark || scalar.value == 0xFE0F ? "" : "?"
        }
    }

    /// JSON text with every character beyond ASCII written as a `\uXXXX` escape (a surrogate
    /// pair beyond the BMP): the same document, in bytes any locale can show.
    public static func escapingJSON(_ text: String) -> String {
        guard !text.utf8.allSatisfy({ $0 < 0x80 }) else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            if scalar.isASCII {
                out.unicodeScalars.append(scalar)
            } else if scalar.value > 0xFFFF {
                let v = scalar.value - 0x10000
                out += "\\u" + Hex.of(0xD800 + (v >> 10), width: 4) + "\\u" + Hex.of(0xDC00 + (v & 0x3FF), width: 4)
            } else {
                out += "\\u" + Hex.of(scalar.value, width: 4)
            }
        }
        return out
    }
}
