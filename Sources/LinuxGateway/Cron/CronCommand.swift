import SharedLogic

/// Writes a command line the way cron runs it: each word single-quoted for /bin/sh, then escaped
/// for cron itself. Debian's cron reads the command before /bin/sh does: a bare `%` ends the
/// command (the rest becomes stdin), `\%` stands for `%` and `\\` for `\`, while a backslash
/// before any other character is kept as it is. So every `%` gets a backslash, and so does every
/// backslash that is followed by a backslash or a `%`.
public enum CronCommand {
    public static func render(_ argv: [String]) throws(GatewayError) -> String {
        try argv.map { (word: String) throws(GatewayError) -> String in
            if word.contains("\n") || word.contains("\r") {
                throw GatewayError("cannot schedule \(word.debugDescription) with cron: a crontab line cannot hold a newline; install notif to a path without one (make install)")
            }
            return escapeForCron(shellQuote(word))
        }.joined(separator: " ")
    }

    /// `word` as one /bin/sh word: bare when it is plainly safe, else in single quotes.
    public static func shellQuote(_ word: String) -> String {
        let safe = !word.isEmpty && word.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || "/._-+:,=@".unicodeScalars.contains($0)
        }
        if safe { return word }
        return "'" + word.replacing("'", with: "'\\''") + "'"
    }

    /// `text` as cron must see it so that, after cron's own unescaping, /bin/sh gets `text`.
    static func escapeForCron(_ text: String) -> String {
        var out = ""
        let scalars = Array(text.unicodeScalars)
        for (index, scalar) in scalars.enumerated() {
            switch scalar {
            case "%": out += "\\%"
            case "\\":
                let next = index + 1 < scalars.count ? scalars[index + 1] : nil
                out += next == "\\" || next == "%" ? "\\\\" : "\\"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// `[ -x PROGRAM ] && exec COMMAND`: the command runs only while notif's program is there, so
    /// an entry left behind by a removed notif does nothing and writes nothing (cron mails any
    /// output, and a shell's "not found" would be output).
    public static func guarded(_ argv: [String], program: String) throws(GatewayError) -> String {
        let test = try render([program])
        return "[ -x \(test) ] && exec " + (try render(argv))
    }

    /// The schedule that runs a job once when the cron daemon starts (at boot).
    public static let atBoot = "@reboot"

    /// The five schedule fields for a daily time (`0 9 * * *`).
    public static func schedule(_ time: DailyTime) -> String { "\(time.minute) \(time.hour) * * *" }
}
