/// What completion offers for the word under the cursor, from the declaration: the one rule the
/// bash, zsh and fish scripts all ask for (`notif __complete SHELL LINE`), so every shell offers
/// the same words and they always match the notif that answers.
public struct CompletionOffers: Equatable, Sendable {
    /// A word to offer, and what it means (zsh and fish show it beside the word).
    public struct Offer: Equatable, Sendable {
        public let word: String
        public let summary: String
    }

    /// The words, in declaration order.
    public let offers: [Offer]
    /// What the word typed so far is (the part after `--option=` for a value given that way).
    public let typed: String
    /// `--option=` when the word under the cursor gives an option's value that way, else empty.
    public let prefix: String

    /// The answer `shell` reads: one offer a line. bash gets the words that start with what
    /// is typed, without `--option=` (bash splits the word there); zsh `WORD:SUMMARY` (it
    /// matches the words itself), fish `WORD<tab>SUMMARY` that start as typed; both with the prefix.
    public func lines(for shell: String) -> [String] {
        switch shell {
        case "zsh":
            return offers.map { prefix + $0.word.replacing(":", with: "\\:") + ($0.summary.isEmpty ? "" : ":" + $0.summary) }
        case "fish":
            // Only the words that start as typed: fish would also match what they mean.
            return offers.filter { $0.word.hasPrefix(typed) }.map { prefix + $0.word + ($0.summary.isEmpty ? "" : "\t" + $0.summary) }
        default:
            return offers.map(\.word).filter { $0.hasPrefix(typed) }
        }
    }
}

extension CommandLineDeclaration {
    /// What to offer at the end of `line`, the command line up to the cursor (`notif set s`):
    /// its words are split at blanks, the first is the program, and the last (empty after a
    /// blank) is the one being completed. Quotes are dropped (no word of notif's has one), so
    /// `notif set "so` offers `sound`, as it does without the quote.
    public func completions(line: String) -> CompletionOffers {
        var words = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map { $0.filter { $0 != "\"" && $0 != "'" } }
        if line.last.map({ $0 == " " || $0 == "\t" }) ?? true { words.append("") }
        var before = Array(words.dropFirst().dropLast())
        var typed = words.count > 1 ? words[words.count - 1] : ""
        var prefix = ""
        if typed.hasPrefix("--"), let equals = typed.firstIndex(of: "=") {
            prefix = String(typed[...equals])
            before.append(String(typed[..<equals]))
            typed = String(typed[typed.index(after: equals)...])
        }
        return CompletionOffers(offers: offers(after: before, typed: typed, valueOnly: !prefix.isEmpty), typed: typed, prefix: prefix)
    }

    /// The offers after the words `before`, for a word that starts as `typed`.
    private func offers(after before: [String], typed: String, valueOnly: Bool) -> [CompletionOffers.Offer] {
        typealias Offer = CompletionOffers.Offer
        // The command (and sub-command) the words name, the arguments given so far, and
        // whether `--` ended the options. An option's value is skipped with it.
        var command: CommandDeclaration?
        var unknown = false
        var arguments: [String] = []
        var ended = false
        var index = 0
        // `--version` goes alone: offered before a command only, and nothing after it.
        func options() -> [OptionDeclaration] {
            guard let command else { return globalOptions }
            return globalOptions.filter { !Self.alone.contains($0.long) } + (command.subcommands.isEmpty ? command.options : [])
        }
        func valued(_ word: String) -> OptionDeclaration? {
            options().first { $0.value != nil && ($0.long == word || $0.short == word) }
        }
        while index < before.count {
            let word = before[index]
            index += 1
            if !ended {
                if word == "--" { ended = true; continue }
                if word.hasPrefix("--") && word.contains("=") { continue }
                if let option = valued(word) {
                    // Its value is the word being completed.
                    if index == before.count { return option.value!.kind.offered.map { Offer(word: $0, summary: "") } }
                    index += 1
                    continue
                }
                if word.hasPrefix("-") && word.count > 1 { continue }
            }
            if command == nil && !unknown {
                command = visibleCommands.first { $0.name == word }
                unknown = command == nil
            } else if let parent = command, !parent.subcommands.isEmpty, arguments.isEmpty, let sub = parent.subcommand(word) {
                command = sub
            } else {
                arguments.append(word)
            }
        }
        // `--option=` for an option that takes no value, a command notif does not have, or after
        // `--version` (which takes nothing after it): nothing.
        let given = Set(before.map { $0.prefix { $0 != "=" } }.map(String.init))
        func isGiven(_ option: OptionDeclaration) -> Bool { given.contains(option.long) || option.short.map(given.contains) == true }
        guard !unknown, !valueOnly, !globalOptions.contains(where: { Self.alone.contains($0.long) && isGiven($0) }) else { return [] }
        // An option given already, or one that cannot go with one given, is not offered again.
        let clashing = Set((command?.exclusive ?? []).filter { !given.isDisjoint(with: $0) }.joined())
        let spellings = { (options: [OptionDeclaration]) in
            options.filter { option in !isGiven(option) && !clashing.contains(option.long) }
                .flatMap { option in CommandLineDeclaration.spellings([option]).map { Offer(word: $0, summary: Self.shortSummary(option.summary)) } }
        }
        if !ended && typed.hasPrefix("-") { return spellings(options()) }
        guard let command else { return visibleCommands.map { Offer(word: $0.name, summary: $0.summary) } }
        if !command.subcommands.isEmpty {
            return arguments.isEmpty ? command.subcommands.map { Offer(word: $0.name, summary: $0.summary) } : []
        }
        // The words the next argument may be; past them (or where it takes any text), the command's own options.
        if arguments.count < command.arguments.count {
            switch command.arguments[arguments.count].kind {
            case .choice(let choices):
                return choices.filter { !$0.hidden && $0.refusal == nil }.map { Offer(word: $0.word, summary: $0.summary) }
            case .followingChoice:
                if arguments.count > 0, case .choice(let choices) = command.arguments[arguments.count - 1].kind,
                   let earlier = choices.first(where: { $0.word == arguments[arguments.count - 1] }), !earlier.next.isEmpty {
                    return earlier.next.map { Offer(word: $0, summary: "") }
                }
            case .commandName:
                return visibleCommands.map { Offer(word: $0.name, summary: $0.summary) }
            default:
                break
            }
        }
        return ended ? [] : spellings(command.options)
    }

    /// Options that take no command or arguments (the parser refuses `notif status --version`).
    static let alone: Set<String> = ["--version"]

    /// An option's summary up to its first pause, to show beside it.
    static func shortSummary(_ summary: String) -> String {
        var short = summary.prefix { $0 != ":" && $0 != ";" && $0 != "(" }
        while short.last == " " { short = short.dropLast() }
        return String(short)
    }
}
