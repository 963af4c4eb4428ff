/// Reads back the words of a command notif wrote into an entry, the inverse of `CronCommand`,
/// `SystemdCommand` and `DesktopExec`: `notif reset --entries` finds the configurations of the
/// entries it removes (their `XDG_CONFIG_HOME`, `XDG_STATE_HOME`, `HOME`) in these words.
public enum CommandWords {
    /// The words of a crontab line's command as /bin/sh gets them, after cron's own `\%` and
    /// `\\`; for notif's guarded line (`[ -x P ] && exec ARGV`) the words after `exec`.
    /// nil for a line that is not a job (a comment, an assignment, a blank line, a note).
    public static func cron(line: String) -> [String]? {
        guard let words = cronCommand(line: line) else { return nil }
        if let exec = words.firstIndex(of: "exec") { return Array(words[(exec + 1)...]) }
        return words
    }

    /// All the words of a crontab line's command (its schedule dropped), as /bin/sh gets them.
    /// nil for a line that is not a job: a job starts with its minute (a digit or `*`) or `@`.
    static func cronCommand(line: String) -> [String]? {
        let trimmed = line.drop { $0 == " " || $0 == "\t" }
        guard let first = trimmed.first, first.isASCII && first.isNumber || first == "*" || first == "@" else { return nil }
        // `@reboot CMD` or five time fields, then the command.
        var rest = Substring(trimmed)
        for _ in 0..<(first == "@" ? 1 : 5) {
            guard let gap = rest.firstIndex(where: { $0 == " " || $0 == "\t" }) else { return nil }
            rest = rest[gap...].drop { $0 == " " || $0 == "\t" }
        }
        return shell(unescapedForCron(String(rest)))
    }

    /// `text` as cron hands it to /bin/sh: `\%` is `%` and `\\` is `\`; other backslashes stay.
    static func unescapedForCron(_ text: String) -> String {
        var out = ""
        var scalars = text.unicodeScalars.makeIterator()
        while let scalar = scalars.next() {
            guard scalar == "\\" else { out.unicodeScalars.append(scalar); continue }
            guard let next = scalars.next() else { out += "\\"; break }
            if next == "%" || next == "\\" { out.unicodeScalars.append(next) } else { out += "\\"; out.unicodeScalars.append(next) }
        }
        return out
    }

    /// /bin/sh words of a simple command: blanks separate, single quotes keep everything, a
    /// backslash outside them keeps the next character, double quotes keep all but `\"`, `\\`.
    static func shell(_ text: String) -> [String] {
        var words: [String] = [], word = "", inWord = false
        var scalars = text.unicodeScalars.makeIterator()
        while let scalar = scalars.next() {
            switch scalar {
            case " ", "\t":
                if inWord { words.append(word); word = ""; inWord = false }
            case "'":
                inWord = true
                while let quoted = scalars.next(), quoted != "'" { word.unicodeScalars.append(quoted) }
            case "\"":
                inWord = true
                while let quoted = scalars.next(), quoted != "\"" {
                    if quoted == "\\", let next = scalars.next() {
                        if next != "\"" && next != "\\" && next != "$" && next != "`" { word += "\\" }
                        word.unicodeScalars.append(next)
                    } else {
                        word.unicodeScalars.append(quoted)
                    }
                }
            case "\\":
                inWord = true
                if let next = scalars.next() { word.unicodeScalars.append(next) }
            default:
                inWord = true
                word.unicodeScalars.append(scalar)
            }
        }
        if inWord { words.append(word) }
        return words
    }

    /// The words of a systemd `ExecStart=` value (systemd.service(5)): double-quoted words with
    /// C escapes, `%%` for `%`, `$$` for `$` in arguments, `\;` for `;`. A leading `-@:+!`
    /// prefix is dropped.
    public static func systemd(execStart value: String) -> [String] {
        var words: [String] = [], word = "", inWord = false
        var scalars = Array(value.unicodeScalars)[...]
        func finish() {
            if inWord { words.append(word) }
            word = ""
            inWord = false
        }
        while let scalar = scalars.popFirst() {
            switch scalar {
            case " ", "\t":
                finish()
            case "\"":
                inWord = true
                while let quoted = scalars.popFirst(), quoted != "\"" {
                    if quoted == "\\" { word += cEscape(&scalars) } else { word.unicodeScalars.append(quoted) }
                }
            case "\\":
                inWord = true
                word += cEscape(&scalars)
            default:
                inWord = true
                word.unicodeScalars.append(scalar)
            }
        }
        finish()
        if var program = words.first {
            while let first = program.first, "-@:+!".contains(first) { program.removeFirst() }
            words[0] = program
        }
        return words.enumerated().map { index, word in
            let specifiers = word.replacing("%%", with: "%")
            return index == 0 ? specifiers : specifiers.replacing("$$", with: "$")
        }
    }

    /// The character a C-style escape after a backslash stands for (`\n`, `\xHH`, `\"`, …).
    private static func cEscape(_ scalars: inout ArraySlice<Unicode.Scalar>) -> String {
        guard let next = scalars.popFirst() else { return "\\" }
        switch next {
        case "n": return "\n"
        case "t": return "\t"
        case "r": return "\r"
        case "x":
            let digits = String(String.UnicodeScalarView(scalars.prefix(2)))
            guard digits.count == 2, let value = UInt32(digits, radix: 16), let scalar = Unicode.Scalar(value) else { return "x" }
            scalars.removeFirst(2)
            return String(Character(scalar))
        default: return String(Character(next))
        }
    }

    /// The words of a desktop entry's `Exec=` value (Desktop Entry Specification): the string
    /// escapes of the file format first, then double-quoted words with `\"`, `` \` ``, `\$`, `\\`,
    /// and `%%` for `%`.
    public static func desktopExec(_ value: String) -> [String] {
        var unescaped = ""
        var scalars = value.unicodeScalars.makeIterator()
        while let scalar = scalars.next() {
            guard scalar == "\\", let next = scalars.next() else { unescaped.unicodeScalars.append(scalar); continue }
            switch next {
            case "\\": unescaped += "\\"
            case "n": unescaped += "\n"
            case "t": unescaped += "\t"
            case "r": unescaped += "\r"
            case "s": unescaped += " "
            default: unescaped += "\\"; unescaped.unicodeScalars.append(next)
            }
        }
        var words: [String] = [], word = "", inWord = false
        scalars = unescaped.unicodeScalars.makeIterator()
        while let scalar = scalars.next() {
            switch scalar {
            case " ", "\t", "\n":
                if inWord { words.append(word); word = ""; inWord = false }
            case "\"":
                inWord = true
                while let quoted = scalars.next(), quoted != "\"" {
                    if quoted == "\\", let next = scalars.next() { word.unicodeScalars.append(next) } else { word.unicodeScalars.append(quoted) }
                }
            default:
                inWord = true
                word.unicodeScalars.append(scalar)
            }
        }
        if inWord { words.append(word) }
        return words.map { $0.replacing("%%", with: "%") }
    }

    /// The variables `/usr/bin/env [-u NAME…] NAME=VALUE… PROGRAM` sets (empty for a command without them).
    public static func assignments(_ argv: [String]) -> [String: String] {
        guard argv.first == "/usr/bin/env" else { return [:] }
        var result: [String: String] = [:]
        for word in withoutUnsets(argv.dropFirst()) {
            guard let equals = word.firstIndex(of: "="), equals != word.startIndex else { break }
            result[String(word[..<equals])] = String(word[word.index(after: equals)...])
        }
        return result
    }

    /// The words after `/usr/bin/env`, its `-u NAME` options and its assignments: the program and its arguments.
    public static func afterEnv(_ argv: ArraySlice<String>) -> ArraySlice<String> {
        withoutUnsets(argv.dropFirst()).drop { $0.contains("=") && !$0.hasPrefix("/") }
    }

    /// `words` without the `-u NAME` pairs at their start.
    static func withoutUnsets(_ words: ArraySlice<String>) -> ArraySlice<String> {
        var rest = words
        while rest.first == "-u", rest.count >= 2 { rest = rest.dropFirst(2) }
        return rest
    }
}
