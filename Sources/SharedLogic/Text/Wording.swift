/// Small pieces of English the messages and help are made of.
public enum Wording {
    /// "a", "a or b", "a, b or c".
    public static func list(_ words: [String], conjunction: String = "or") -> String {
        guard let last = words.last else { return "" }
        return words.count == 1 ? last : words.dropLast().joined(separator: ", ") + " \(conjunction) " + last
    }

    /// `text` made at least `width` characters long, with at least one space after it.
    public static func padded(_ text: String, to width: Int) -> String {
        text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
    }

    /// The first letter in upper case.
    public static func capitalizedFirst(_ text: String) -> String {
        guard let first = text.first else { return "" }
        return first.uppercased() + text.dropFirst()
    }

    /// `text` broken at spaces into lines of at most `width` characters (a longer word stays whole).
    public static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: true) {
            if line.isEmpty {
                line = String(word)
            } else if line.count + 1 + word.count <= width {
                line += " " + word
            } else {
                lines.append(line)
                line = String(word)
            }
        }
        if !line.isEmpty || lines.isEmpty { lines.append(line) }
        return lines
    }

    /// Rows of a two-column table: the left column padded to one width, the right wrapped
    /// beside it, the whole within `width` characters and indented by two spaces.
    public static func table(_ rows: [(String, String)], width: Int = 79) -> String {
        // Names longer than 24 characters stand on their own line, the text below them.
        let left = max(rows.map(\.0.count).filter { $0 <= 24 }.max() ?? 0, 4) + 2
        var out: [String] = []
        for (name, text) in rows {
            let wrapped = wrap(text, width: max(20, width - 2 - left))
            if name.count + 2 > left {
                out.append("  " + name)
                out += wrapped.map { "  " + String(repeating: " ", count: left) + $0 }
            } else {
                out.append("  " + padded(name, to: left) + wrapped[0])
                out += wrapped.dropFirst().map { "  " + String(repeating: " ", count: left) + $0 }
            }
        }
        return out.joined(separator: "\n")
    }
}
