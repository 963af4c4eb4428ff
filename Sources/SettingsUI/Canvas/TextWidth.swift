import SharedLogic

/// How many terminal columns one character takes: 2 for wide East Asian characters and most
/// emoji, 0 for combining marks, -1 for what the terminal cannot show.
public struct ColumnWidths: Sendable {
    public let columns: @Sendable (Unicode.Scalar) -> Int

    public init(_ columns: @escaping @Sendable (Unicode.Scalar) -> Int) {
        self.columns = columns
    }

    /// A fixed Unicode table (East Asian Wide and Fullwidth, emoji presentation), the same in
    /// every locale: the default, so tests do not depend on the machine's locale.
    public static let unicode = ColumnWidths { UnicodeWidthTable.columns(of: $0) }
}

/// Terminal column widths of text, from the `ColumnWidths` in force (`TextWidth.$columns.withValue`).
public enum TextWidth {
    /// The widths rendering uses: the page's shell sets the C library's (`ColumnWidths.system`
    /// in CursesTerminal), so the page's columns and the terminal's agree.
    @TaskLocal public static var columns: ColumnWidths = .unicode

    public static func of(_ text: String) -> Int {
        text.unicodeScalars.reduce(0) { $0 + of($1) }
    }

    public static func of(_ character: Character) -> Int {
        // Printable ASCII, nearly every character notif draws: no lookup needed.
        if let ascii = character.asciiValue { return ascii >= 0x20 && ascii < 0x7F ? 1 : 0 }
        return character.unicodeScalars.reduce(0) { $0 + of($1) }
    }

    /// The columns one scalar takes on the page: controls and bidirectional controls none (they
    /// are never drawn), what the terminal cannot show those of its ASCII stand-in (`...` for
    /// `…`, `?` for most).
    public static func of(_ scalar: Unicode.Scalar) -> Int {
        let v = scalar.value
        if v >= 0x20 && v < 0x7F { return 1 }
        if TerminalText.needsEscape(scalar) { return 0 }
        let w = columns.columns(scalar)
        return w < 0 ? ASCIIText.replacement(for: scalar).utf8.count : w
    }

    /// Whether the terminal can show `scalar` as it is (else the page draws its ASCII stand-in).
    public static func isPrintable(_ scalar: Unicode.Scalar) -> Bool {
        let v = scalar.value
        if v >= 0x20 && v < 0x7F { return true }
        return !TerminalText.needsEscape(scalar) && columns.columns(scalar) >= 0
    }

    /// `text` cut to at most `width` columns, ending in `…` (or `...` without Unicode) when cut.
    /// `atWord`: cut at the last space that keeps at least half the width, so no word is split.
    public static func truncate(_ text: String, to width: Int, unicode: Bool = true, atWord: Bool = false) -> String {
        guard width > 0 else { return "" }
        if of(text) <= width { return text }
        let ellipsis = unicode ? "…" : "..."
        guard width > ellipsis.count else { return String(ellipsis.prefix(width)) }
        var result = ""
        var used = 0
        var lastSpace: (index: String.Index, used: Int)?
        for character in text {
            let w = of(character)
            if used + w > width - ellipsis.count { break }
            if character == " " { lastSpace = (result.endIndex, used) }
            result.append(character)
            used += w
        }
        // Room for the `)` a cut inside parentheses ends with.
        if used + of(cutMark(after: result, unicode: unicode)) > width, let last = result.popLast() { used -= of(last) }
        if atWord, let space = lastSpace, space.index < result.endIndex, space.used >= width / 2 {
            result = String(result[..<space.index]) + " "
        }
        return result + cutMark(after: result, unicode: unicode)
    }

    /// What ends a cut: `…` (`...` without Unicode), and `)` when the cut falls inside
    /// parentheses, so none is left open.
    static func cutMark(after kept: String, unicode: Bool) -> String {
        let open = kept.reduce(0) { $0 + ($1 == "(" ? 1 : $1 == ")" ? -1 : 0) }
        return (unicode ? "…" : "...") + (open > 0 ? ")" : "")
    }

    /// Splits `text` into lines of at most `width` columns at spaces (a word longer than a line
    /// is cut with `…`).
    public static func wrap(_ text: String, width: Int, unicode: Bool = true) -> [String] {
        guard width > 0 else { return [] }
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: false).map(String.init) {
            let candidate = line.isEmpty ? word : line + " " + word
            if of(candidate) <= width {
                line = candidate
            } else {
                if !line.isEmpty { lines.append(line) }
                line = of(word) <= width ? word : truncate(word, to: width, unicode: unicode)
            }
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }

    /// `wrap`, kept to `maxRows` lines: when the text does not fit, the last line ends at a word
    /// boundary with `…`, so a cut is never silent and never splits a word.
    public static func wrap(_ text: String, width: Int, maxRows: Int, unicode: Bool = true) -> [String] {
        var lines = wrap(text, width: width, unicode: unicode)
        guard maxRows > 0 else { return [] }
        guard lines.count > maxRows else { return lines }
        lines = Array(lines.prefix(maxRows))
        let before = lines.dropLast().joined(separator: " ")
        var words = lines[maxRows - 1].split(separator: " ").map(String.init)
        func ended(_ words: [String]) -> String {
            let kept = words.joined(separator: " ")
            return kept + " " + cutMark(after: before + " " + kept, unicode: unicode)
        }
        while !words.isEmpty && of(ended(words)) > width { words.removeLast() }
        lines[maxRows - 1] = words.isEmpty ? truncate(lines[maxRows - 1], to: width, unicode: unicode) : ended(words)
        return lines
    }
}

extension String {
    /// Pads with spaces to `width` columns (never cuts).
    public func padding(to width: Int) -> String {
        let w = TextWidth.of(self)
        return w >= width ? self : self + String(repeating: " ", count: width - w)
    }

    /// Exactly `width` columns: cut with `…` when longer, padded when shorter.
    public func fitted(to width: Int, unicode: Bool = true) -> String {
        TextWidth.truncate(self, to: width, unicode: unicode).padding(to: width)
    }
}
