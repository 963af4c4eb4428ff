import SharedLogic

/// `notif --help` and `notif help COMMAND`, made from the declaration.
extension CommandLineDeclaration {
    /// The overview: usage, commands, global options, files, exit status.
    public var overview: String {
        """
        \(program): \(summary).

        \(Self.usageLines(usage))

        Commands (`\(program) help COMMAND` shows one in full):
        \(Wording.table(visibleCommands.map { ($0.name, $0.summary) }))

        \(Self.wrapped(withoutCommand))

        Options:
        \(Wording.table(globalOptions.map { ($0.tableForm, $0.summary + ($0.environment.map { "; also \($0)" } ?? "")) }))

        Files:
        \(Wording.table(files.filter { $0.path.hasPrefix("$") || $0.path.hasPrefix("~") }.map { ($0.path, $0.summary) }))

        \(Self.wrapped("Exit status: " + exitStatus))

        """
    }

    /// `Usage: notif daemon [--poll-interval SECONDS]`, and what does not fit in 79 columns on
    /// lines of its own, under the first word after the command.
    public func usageLines(_ command: CommandDeclaration) -> String { Self.usageLines(usage(command)) }

    static func usageLines(_ usage: String, width: Int = 79) -> String {
        // Words split at spaces outside brackets: `[--limit COUNT]` stays whole.
        var words: [String] = [""]
        var depth = 0
        for character in usage {
            if character == "[" { depth += 1 } else if character == "]" { depth -= 1 }
            if character == " " && depth == 0 { words.append("") } else { words[words.count - 1].append(character) }
        }
        var lines = ["Usage: " + words.prefix(2).joined(separator: " ")]
        let indent = String(repeating: " ", count: lines[0].count + 1)
        for word in words.dropFirst(2) {
            if lines[lines.count - 1].count + 1 + word.count <= width {
                lines[lines.count - 1] += " " + word
            } else {
                lines.append(indent + word)
            }
        }
        return lines.joined(separator: "\n")
    }

    /// A command's help: usage, summary, details, then its arguments' words and its options.
    public func help(_ command: CommandDeclaration) -> String {
        var parts = [usageLines(command), Self.wrapped(Wording.capitalizedFirst(command.summary) + ".")]
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
        if !together.isEmpty { parts.append(Self.wrapped("Not together: " + together.joined(separator: "; ") + ".")) }
        return parts.joined(separator: "\n\n") + "\n"
    }

    func optionTable(_ command: CommandDeclaration) -> String {
        Wording.table(command.options.map { option in
            (option.tableForm, option.summary + (option.environment.map { "; also \($0)" } ?? ""))
        })
    }

    /// The words an argument accepts: a table when they have meanings or values of their own.
    func argumentSection(_ argument: ArgumentDeclaration, of command: CommandDeclaration) -> String? {
        let title = Wording.capitalizedFirst(argument.noun)
        switch argument.kind {
        case .choice(let choices):
            let shown = choices.filter { !$0.hidden && $0.refusal == nil }
            if shown.contains(where: { !$0.next.isEmpty }) {
                return title + "s and their values:\n" + Wording.table(shown.map { ($0.word, Wording.list($0.next)) })
            }
            if shown.allSatisfy({ $0.summary.isEmpty }) { return Self.wrapped(title + ": " + Wording.list(shown.map(\.word)) + ".") }
            return title + "s:\n" + Wording.table(shown.map { ($0.word, $0.summary) })
        case .commandName:
            return Self.wrapped(title + ": " + Wording.list(visibleCommands.map(\.name)) + ".")
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
