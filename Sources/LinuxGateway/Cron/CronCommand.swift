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
                // An assignment the entry carries (XDG_CONFIG_HOME=…, TZ=…), or notif's own path.
                if let equals = word.firstIndex(of: "="), !word[..<equals].contains("/") {
                    let name = word[..<equals]
                    throw GatewayError("cannot schedule with cron: \(name) holds a line break (\(word.debugDescription)), and a crontab line cannot; set \(name) to a value without one")
                }
                throw GatewayError("cannot schedule \(word.debugDescription) with cron: a crontab line cannot hold a line break; install notif to a path without one (make install)")
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
        let command = "[ -x \(test) ] && exec " + (try render(argv))
        guard command.utf8.count <= longestCommand else {
            throw GatewayError("cannot schedule with cron: the command that runs notif would be \(command.utf8.count) bytes long, and cron takes "
                + "\(longestCommand) at most; install notif to a shorter path (make install), or use shorter HOME and XDG_* directories")
        }
        return command
    }

    /// The longest command Debian's cron takes after a line's schedule: from 999 bytes on
    /// `crontab` refuses the table (`command too long`).
    public static let longestCommand = 998

    /// The variables besides `HOME` that notif's run reads to find its files and count its day.
    /// cron gives a job every variable the user's lines above notif's block assign (`TZ=…` or
    /// `HOME=…` meant for their own jobs), so notif's lines say each of these themselves.
    static let pinnedVariables = ["TZ", "TZDIR", "XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_DATA_HOME"]

    /// `argv` run through `/usr/bin/env` with `HOME` and each of `pinnedVariables` set as the
    /// entry carries it, else `HOME` set to `home` (when known) and the others unset (`-u NAME`).
    public static func pinned(_ argv: [String], home: String?) -> [String] {
        var rest = argv[...]
        var assignments: [String] = []
        if rest.first == "/usr/bin/env" {
            rest = rest.dropFirst()
            while let word = rest.first, !word.hasPrefix("/"), word.contains("=") {
                assignments.append(word)
                rest = rest.dropFirst()
            }
        }
        func names() -> Set<String> { Set(assignments.map { String($0.prefix { $0 != "=" }) }) }
        if !names().contains("HOME"), let home { assignments.insert("HOME=" + home, at: 0) }
        let unset = pinnedVariables.filter { !names().contains($0) }.flatMap { ["-u", $0] }
        // env takes a program path holding '=' for one more assignment (see `execTrampoline`).
        if let program = rest.first, program.contains("=") { rest = ReminderService.execTrampoline[...] + rest }
        return ["/usr/bin/env"] + unset + assignments + rest
    }

    /// notif's program in a crontab line: the one `guarded` tests (`… [ -x PROGRAM ] && exec …`),
    /// else the command's program after `/usr/bin/env` and its assignments (lines of an earlier
    /// notif); cron's escapes and the shell's quotes undone. nil when the line has no command.
    public static func program(inLine line: String) -> String? {
        guard let words = CommandWords.cronCommand(line: line) else { return nil }
        if let test = words.firstIndex(of: "-x"), test > 0, words[test - 1] == "[", test + 1 < words.count { return words[test + 1] }
        return (words.first == "/usr/bin/env" ? CommandWords.afterEnv(words[...]) : words[...]).first
    }

    /// The schedule that runs a job once when the cron daemon starts (at boot).
    public static let atBoot = "@reboot"

    /// The five schedule fields for a daily time (`0 9 * * *`).
    public static func schedule(_ time: DailyTime) -> String { "\(time.minute) \(time.hour) * * *" }

    /// The five fields for a slot: daily (`0 9 * * *`) or one day a week (`0 10 * * 1`).
    public static func schedule(_ slot: SchedulerTimes.Slot) -> String {
        "\(slot.time.minute) \(slot.time.hour) * * \(slot.weekday.map { String($0.cronNumber) } ?? "*")"
    }

    /// The five fields of a run on the days the cron daemon's clock repeats an hour
    /// (`1 * 25,26,27,28,29,30,31 10 *`): the `*` in the hour field makes it a job cron runs in
    /// the repeated hour too, where it runs no fixed-time job.
    public static func schedule(_ run: RepeatedHourRun) -> String {
        "\(run.minute) * \(run.days.map(String.init).joined(separator: ",")) \(run.month) *"
    }
}
