import SharedLogic

/// The man page (doc/notif.1), made from the declaration: `make man` writes it, and a test
/// fails when the checked-in page differs.
extension CommandLineDeclaration {
    public var manPage: String {
        var lines: [String] = []
        lines.append(".TH \(program.uppercased()) 1 \"\(date)\" \"\(program) \(version)\" \"User Commands\"")
        lines.append(".SH NAME")
        lines.append("\(program) \\- " + Roff.escape(summary))
        lines.append(".SH SYNOPSIS")
        lines.append(Roff.synopsis(usage))
        lines.append(".SH DESCRIPTION")
        lines += Self.roffParagraphs(description, separator: ".PP")
        lines.append(".SH COMMANDS")
        for command in visibleCommands {
            let entries = command.subcommands.isEmpty ? [(command.name, command)] : command.subcommands.map { ("\(command.name) \($0.name)", $0) }
            for (index, (name, entry)) in entries.enumerated() {
                lines.append(".TP")
                lines.append(Roff.synopsis(name + (entry.usageTail.isEmpty ? "" : " " + entry.usageTail)))
                lines.append(Roff.paragraph(Wording.capitalizedFirst(entry.summary) + "."))
                if !entry.details.isEmpty {
                    lines.append(".IP")
                    lines += Self.roffParagraphs(entry.details, separator: ".IP")
                }
                lines += manArguments(entry)
                lines += manOptions(entry)
                // What the parent says holds for all its sub-commands: after the first one's text.
                if !command.subcommands.isEmpty && index == 0 && !command.details.isEmpty {
                    lines.append(".IP")
                    lines += Self.roffParagraphs(command.details, separator: ".IP")
                }
            }
        }
        lines.append(".SH OPTIONS")
        for option in globalOptions {
            lines.append(".TP")
            lines.append(Self.optionTag(option))
            lines.append(Roff.paragraph(Wording.capitalizedFirst(option.summary) + "."))
        }
        lines.append(".SH ENVIRONMENT")
        let fallbacks = (globalOptions.map { (nil as String?, $0) } + commands.filter { !$0.hidden }.flatMap { command in command.options.map { (command.name as String?, $0) } })
            .filter { $0.1.environment != nil }
        for (command, option) in fallbacks {
            lines.append(".TP")
            lines.append(".B " + Roff.escape(option.environment!))
            lines.append(Roff.paragraph("The value of `" + ([program] + (command.map { [$0] } ?? []) + [option.long]).joined(separator: " ")
                                        + "` when that option is not given."))
        }
        for (name, summary) in environment {
            lines.append(".TP")
            lines.append(".B " + Roff.escape(name))
            lines.append(Roff.paragraph(Wording.capitalizedFirst(summary) + "."))
        }
        lines.append(".SH FILES")
        for file in files {
            lines.append(".TP")
            lines.append((file.path.contains("/") ? ".I " : ".B ") + Roff.escape(file.path))
            lines.append(Roff.paragraph(Wording.capitalizedFirst(file.summary) + ". " + file.more))
        }
        for (title, text) in manualSections {
            lines.append(".SH " + title)
            lines += Self.roffParagraphs(text, separator: ".PP")
        }
        lines.append(".SH EXIT STATUS")
        lines.append(Roff.paragraph(Wording.capitalizedFirst(exitStatus)))
        lines.append(".SH SEE ALSO")
        for (index, page) in seeAlso.enumerated() {
            let name = page.prefix { $0 != "(" }
            lines.append(".BR " + Roff.escape(String(name)) + " " + page.dropFirst(name.count) + (index < seeAlso.count - 1 ? "," : ""))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `\fB\-n\fR, \fB\-\-limit\fR \fICOUNT\fR`.
    static func optionTag(_ option: OptionDeclaration) -> String {
        let names = ([option.short].compactMap { $0 } + [option.long]).map { "\\fB" + Roff.escape($0) + "\\fR" }.joined(separator: ", ")
        return names + (option.value.map { " \\fI" + Roff.escape($0.placeholder) + "\\fR" } ?? "")
    }

    func manOptions(_ command: CommandDeclaration) -> [String] {
        guard !command.options.isEmpty else { return [] }
        var lines = [".RS"]
        for option in command.options {
            lines.append(".TP")
            lines.append(Self.optionTag(option))
            lines.append(Roff.paragraph(Wording.capitalizedFirst(option.summary) + (option.environment.map { "; also \($0)" } ?? "") + "."))
        }
        let together = command.exclusive.map { Wording.list($0, conjunction: "and") }
        if !together.isEmpty {
            lines.append(".PP")
            lines.append(Roff.paragraph("Not together: " + together.joined(separator: "; ") + "."))
        }
        lines.append(".RE")
        return lines
    }

    func manArguments(_ command: CommandDeclaration) -> [String] {
        var lines: [String] = []
        for argument in command.arguments {
            guard case .choice(let choices) = argument.kind else { continue }
            let shown = choices.filter { !$0.hidden && $0.refusal == nil }
            guard shown.contains(where: { !$0.summary.isEmpty || !$0.next.isEmpty }) else {
                lines.append(".IP")
                lines.append(Roff.paragraph(Wording.capitalizedFirst(argument.noun) + ": " + Wording.list(shown.map(\.word)) + "."))
                continue
            }
            lines.append(".RS")
            for choice in shown {
                lines.append(".TP")
                lines.append("\\fB" + Roff.escape(choice.word) + "\\fR")
                lines.append(choice.next.isEmpty
                             ? Roff.paragraph(Wording.capitalizedFirst(choice.summary) + ".")
                             : Wording.list(choice.next.map { "\\fB" + Roff.escape($0) + "\\fR" }))
            }
            lines.append(".RE")
        }
        return lines
    }

    /// Paragraphs as roff: `separator` between them; lines starting with two spaces as an
    /// unfilled, indented example.
    static func roffParagraphs(_ text: String, separator: String) -> [String] {
        var lines: [String] = []
        for (index, paragraph) in paragraphs(text).enumerated() {
            if index > 0 { lines.append(separator) }
            if paragraph.hasPrefix("  ") {
                lines.append(".nf")
                lines += paragraph.split(separator: "\n").map { "    \\fB" + Roff.escape(String($0.dropFirst(2))) + "\\fR" }
                lines.append(".fi")
            } else {
                lines.append(Roff.paragraph(paragraph))
            }
        }
        return lines
    }
}
