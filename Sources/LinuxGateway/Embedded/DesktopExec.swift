import SharedLogic

/// Writes an argv as a desktop entry `Exec=` value (Desktop Entry Specification, "The Exec
/// key"): arguments with reserved characters double-quoted with `"`, `` ` ``, `$` and `\`
/// backslash-escaped, `%` doubled (field codes), then the string escapes of the file format
/// (`\\`, `\n`, `\t`, `\r`) on top.
public enum DesktopExec {
    public static func render(_ argv: [String]) -> String {
        var words = argv
        // GLib checks that the program exists before expanding `%%`: a program path holding `%`
        // would be "not found". Let /usr/bin/env start it instead.
        // (env would take a path that also holds '=' for an assignment: sh starts that one.)
        if let program = words.first, program.contains("%") {
            words.insert(contentsOf: program.contains("=") ? ReminderService.execTrampoline : ["/usr/bin/env"], at: 0)
        }
        return stringEscaped(words.map(quoted).joined(separator: " "))
    }

    static let reserved: Set<Character> = [" ", "\t", "\n", "\"", "'", "\\", ">", "<", "~", "|", "&", ";", "$", "*", "?", "#", "(", ")", "`"]

    static func quoted(_ word: String) -> String {
        let doubled = word.replacing("%", with: "%%")
        guard word.isEmpty || word.contains(where: { reserved.contains($0) }) else { return doubled }
        var result = "\""
        for character in doubled {
            if character == "\"" || character == "`" || character == "$" || character == "\\" { result.append("\\") }
            result.append(character)
        }
        return result + "\""
    }

    /// A desktop entry string value (`\\`, `\n`, `\t`, `\r` escaped; a leading space as `\s`).
    static func stringEscaped(_ value: String) -> String {
        var result = ""
        for character in value {
            switch character {
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            case "\r": result += "\\r"
            case " " where result.isEmpty: result += "\\s"
            default: result.append(character)
            }
        }
        return result
    }
}
