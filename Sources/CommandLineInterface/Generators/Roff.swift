import SharedLogic

/// Text made safe for roff (man pages): escapes, `code` in bold, lines that would read as requests guarded.
enum Roff {
    /// Backslashes and hyphens escaped (a hyphen in an option must stay a minus sign).
    static func escape(_ text: String) -> String {
        text.replacing("\\", with: "\\e").replacing("-", with: "\\-")
    }

    /// One paragraph as roff source lines: escaped, `code` in bold, filled lines of at most
    /// about 90 characters, none starting with `.` or `'`.
    static func paragraph(_ text: String) -> String {
        var out = ""
        var inCode = false
        for part in text.split(separator: "`", omittingEmptySubsequences: false) {
            out += inCode ? "\\fB" + escape(String(part)) + "\\fR" : escape(String(part))
            inCode.toggle()
        }
        return Wording.wrap(out, width: 90).map(guarded).joined(separator: "\n")
    }

    /// A source line that cannot be taken for a request.
    static func guarded(_ line: String) -> String {
        line.hasPrefix(".") || line.hasPrefix("'") ? "\\&" + line : line
    }

    /// A usage form: literal words bold, placeholders (upper case) italic, `[ ] |` roman.
    static func synopsis(_ usage: String) -> String {
        var out = ""
        var word = ""
        func flush() {
            guard !word.isEmpty else { return }
            let placeholder = word.allSatisfy { $0.isUppercase || $0 == "_" || $0 == "-" } && word.contains { $0.isUppercase }
            out += (placeholder ? "\\fI" : "\\fB") + escape(word) + "\\fR"
            word = ""
        }
        for character in usage {
            if "[]| ".contains(character) {
                flush()
                out.append(character)
            } else {
                word.append(character)
            }
        }
        flush()
        return guarded(out)
    }
}
