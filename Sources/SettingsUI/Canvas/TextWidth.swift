import SharedLogic

/// Terminal column widths of text: wide East Asian characters and emoji take two columns,
/// combining marks none.
public enum TextWidth {
    public static func of(_ text: String) -> Int {
        text.reduce(0) { $0 + of($1) }
    }

    public static func of(_ character: Character) -> Int {
        // Printable ASCII, nearly every character notif draws: no Unicode tables needed.
        if let ascii = character.asciiValue { return ascii >= 0x20 && ascii < 0x7F ? 1 : 0 }
        guard let scalar = character.unicodeScalars.first else { return 0 }
        return of(scalar)
    }

    /// The columns one scalar takes (combining marks and controls: none).
    public static func of(_ scalar: Unicode.Scalar) -> Int {
        let v = scalar.value
        if v >= 0x20 && v < 0x7F { return 1 }
        // Controls, and bidirectional controls that would reorder the terminal's text: never drawn.
        if TerminalText.needsEscape(scalar) { return 0 }
        // Box drawing, arrows and general punctuation (all notif's own glyphs): one column.
        if (0x2010...0x2BFF).contains(v) && !(0x2E80...0x303E).contains(v) { return 1 }
        for range in wide where range.contains(v) { return 2 }
        let category = scalar.properties.generalCategory
        return category == .nonspacingMark || category == .enclosingMark ? 0 : 1
    }

    /// East Asian wide and emoji ranges: two columns.
    private static let wide: [ClosedRange<UInt32>] = [
        0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
        0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6,
        0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x3FFFD,
    ]

    /// `text` cut to at most `width` columns, ending in `…` (or `.` without Unicode) when cut.
    public static func truncate(_ text: String, to width: Int, unicode: Bool = true) -> String {
        guard width > 0 else { return "" }
        if of(text) <= width { return text }
        var result = ""
        var used = 0
        let ellipsis: Character = unicode ? "…" : "."
        for character in text {
            let w = of(character)
            if used + w > width - 1 { break }
            result.append(character)
            used += w
        }
        result.append(ellipsis)
        return result
    }

    /// Splits `text` into lines of at most `width` columns at spaces.
    public static func wrap(_ text: String, width: Int) -> [String] {
        guard width > 0 else { return [] }
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: false).map(String.init) {
            let candidate = line.isEmpty ? word : line + " " + word
            if of(candidate) <= width {
                line = candidate
            } else {
                if !line.isEmpty { lines.append(line) }
                line = of(word) <= width ? word : truncate(word, to: width)
            }
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }
}

extension String {
    /// Pads with spaces to `width` columns (never cuts).
    public func padding(to width: Int) -> String {
        let w = TextWidth.of(self)
        return w >= width ? self : self + String(repeating: " ", count: width - w)
    }
}
