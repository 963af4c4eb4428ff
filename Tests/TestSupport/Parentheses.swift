/// What is wrong with a message's parentheses: one opened inside another, one left open, or
/// one closed that was never opened. Messages keep them flat and closed, so a reason they
/// carry goes after a colon, never into a second pair.
public enum Parentheses {
    /// nil when every `(` is closed before the next one opens; else what is wrong, and where.
    public static func problem(in text: String) -> String? {
        let characters = Array(text)
        var depth = 0
        var opened = 0
        func around(_ index: Int) -> String {
            String(characters[max(0, index - 60)..<min(characters.count, index + 40)])
        }
        for (index, character) in characters.enumerated() {
            if character == "(" {
                depth += 1
                if depth > 1 { return "nested parentheses: …\(around(index))…" }
                opened = index
            } else if character == ")" {
                depth -= 1
                if depth < 0 { return "a ')' closes nothing: …\(around(index))…" }
            }
        }
        return depth == 0 ? nil : "a '(' is not closed: …\(around(opened))…"
    }
}
