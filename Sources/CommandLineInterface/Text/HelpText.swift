/// `notif --help` and `notif help COMMAND`, made from the declaration.
extension CommandLineDeclaration {
    /// `  status [--json]                       settings, …`: the summary on its own line when the usage is long.
    func overviewLine(_ command: CommandDeclaration) -> String {
        let usage = String(self.usage(command).dropFirst(program.count + 1))
        return usage.count < 38 ? "  " + Wording.padded(usage, to: 38) + " " + command.summary
                                : "  " + usage + "\n" + String(repeating: " ", count: 41) + command.summary
    }

    /// The overview: usage, commands, global options, files, exit status.
    public var overview: String {
        """
        \(program): \(summary).

        Usage: \(usage)

        Commands:
        \(visibleCommands.map(overviewLine).joined(separator: "\n"))

        \(withoutCommand)

        Options:
        \(Wording.table(globalOptions.map { ($0.tableForm, $0.summary + ($0.environment.map { " (also \($0))" } ?? "")) }))

        Files:
        \(Wording.table(files.filter { $0.path.hasPrefix("$") || $0.path.hasPrefix("~") }.map { ($0.path, $0.summary) }, width: 99))

        Exit status: \(exitStatus)

        """
    }

    /// A command's help: usage, summary, details, then its arguments' words and its options.
    public func help(_ command: CommandDeclaration) -> String {
        var parts = ["Usage: \(usage(command))", Self.wrapped(Wording.capitalizedFirst(command.summary) + ".")]
        if !command.details.isEmpty { parts.append(Self.wrapped(command.details)) }
        for sub in command.subcommands {
            var text = "\(program) \(command.name) \(sub.name)\(sub.usageTail.isEmpty ? "" : " " + sub.usageTail)\n"
                + Self.indent(Self.wrapped(Wording.capitalizedFirst(sub.summary) + ". " + sub.details, width: 75), by: 4)
            if !sub.options.isEmpty { text += "\n" + Self.indent(optionTable(sub), by: 2) }
            parts.append(text)
        }
        for argument in command.arguments {
            if let section = argumentSection(argument, of: command) { parts.append(section) }
        }
        if !command.options.isEmpty { parts.append("Options:\n" + optionTable(command)) }
        let together = command.exclusive.map { group in Wording.list(group, conjunction: "and") }
        if !together.isEmpty { parts.append("Not together: " + together.joined(separator: "; ") + ".") }
        return parts.joined(separator: "\n\n") + "\n"
    }

    func optionTable(_ command: CommandDeclaration) -> String {
        Wording.table(command.options.map { option in
            (option.tableForm, option.summary + (option.environment.map { "; also \($0)" } ?? ""))
        })
    }

    /// The words an argument accepts: a table when they have meanings or values of their own.
    func argumentSection(_ argument: ArgumentDeclaration, of command: CommandDeclaration) -> String? {
        let title = Wording.capitalizedFirst(argument.noun) + "s"
        switch argument.kind {
        case .choice(let choices):
            let shown = choices.filter { !$0.hidden && $0.refusal == nil }
            if shown.contains(where: { !$0.next.isEmpty }) {
                return title + " and their values:\n" + Wording.table(shown.map { ($0.word, $0.next.joined(separator: "|")) })
            }
            if shown.allSatisfy({ $0.summary.isEmpty }) { return Self.wrapped(title + ": " + Wording.list(shown.map(\.word), conjunction: "and") + ".") }
            return title + ":\n" + Wording.table(shown.map { ($0.word, $0.summary) })
        case .commandName:
            return Self.wrapped(title + ": " + visibleCommands.map(\.name).joined(separator: ", ") + ".")
        default:
            return nil
        }
    }

    /// Paragraphs wrapped at 79 columns; lines starting with two spaces stay as they are.
    static func wrapped(_ text: String, width: Int = 79) -> String {
        paragraphs(text).map { paragraph in
            paragraph.hasPrefix("  ") ? paragraph : Wording.wrap(paragraph, width: width).joined(separator: "\n")
        }.joined(separator: "\n\n")
    }

    /// Paragraphs: separated by blank lines; a paragraph of example lines keeps its lines.
    static func paragraphs(_ text: String) -> [String] {
        text.split(separator: "\n\n", omittingEmptySubsequences: true).map { String($0) }
    }

    static func indent(_ text: String, by count: Int) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.isEmpty ? "" : String(repeating: " ", count: count) + $0 }.joined(separator: "\n")
    }
}
