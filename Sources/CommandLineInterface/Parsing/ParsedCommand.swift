import SharedLogic

/// A command's words checked against its declaration: which (sub-)command, its options with
/// their values, and its arguments. What the command itself still checks is only what the
/// declaration says it checks (`checkedByCommand`).
public struct ParsedCommand: Equatable, Sendable {
    /// What the command runs.
    public let action: CommandAction
    /// `["account", "login"]`.
    public let path: [String]
    /// Options given, by long name (a flag's text is empty); environment fallbacks included.
    public let options: [String: GivenValue]
    public let arguments: [String]

    public init(_ action: CommandAction, path: [String], options: [String: GivenValue] = [:], arguments: [String] = []) {
        self.action = action
        self.path = path
        self.options = options
        self.arguments = arguments
    }

    /// `account login`.
    public var name: String { path.joined(separator: " ") }

    public func flag(_ long: String) -> Bool { options[long] != nil }

    public func value(_ long: String) -> GivenValue? { options[long] }

    /// A whole-number option's value (checked by the parser).
    public func number(_ long: String) -> Int64? {
        options[long].flatMap { Int64($0.text.hasPrefix("+") ? String($0.text.dropFirst()) : $0.text) }
    }

    /// A positive-number option's value (checked by the parser).
    public func decimal(_ long: String) -> Double? { options[long].flatMap { Double($0.text) } }
}

extension CommandLineDeclaration {
    /// Checks the command's words against its declaration. Every error names the word at
    /// fault and carries the command whose usage to show (none for hidden commands).
    public func parse(_ invocation: Invocation, environment: (String) -> String?) throws(UsageError) -> ParsedCommand {
        guard let name = invocation.command, let top = command(name) else {
            throw unknownCommand(invocation.command ?? "")
        }
        let usage = top.hidden ? nil : top.name
        func fail(_ message: String) -> UsageError { UsageError(message: message, command: usage) }
        var current = top
        var path = [name]
        var options: [String: GivenValue] = [:]
        var arguments: [String] = []
        let words = invocation.words
        var index = 0
        while index < words.count {
            let word = words[index]
            let literal = index >= invocation.literalFrom
            index += 1
            if !literal && word.hasPrefix("-") && word != "-" {
                guard let (option, attached, spelling) = OptionMatch.find(word, in: current.options) else {
                    throw fail(Suggestion.after("unknown option '\(word)' for \(path.joined(separator: " "))", word: word,
                                                among: Self.spellings(current.options + globalOptions), listing: false))
                }
                guard let value = option.value else {
                    options[option.long] = GivenValue("", from: spelling)
                    continue
                }
                if let attached {
                    options[option.long] = GivenValue(attached, from: spelling)
                } else {
                    guard index < words.count else { throw fail("\(spelling) needs \(value.wanted)") }
                    options[option.long] = GivenValue(words[index], from: spelling)
                    index += 1
                }
                continue
            }
            if !current.subcommands.isEmpty {
                guard let sub = current.subcommand(word) else {
                    throw fail(Suggestion.after("unknown \(current.subcommandNoun) '\(word)'", word: word, among: current.subcommands.map(\.name)))
                }
                current = sub
                path.append(word)
                continue
            }
            arguments.append(word)
        }
        let shown = path.joined(separator: " ")
        guard let action = current.action else {
            throw fail("\(shown) needs \(Wording.list(current.subcommands.map(\.name)))")
        }
        if arguments.count > current.arguments.count {
            throw fail("unexpected argument '\(arguments[current.arguments.count])' for \(shown)")
        }
        let missing = current.arguments.dropFirst(arguments.count).filter { !$0.optional }
        if !missing.isEmpty {
            throw fail("\(shown) needs " + missing.map(\.wanted).joined(separator: " and "))
        }
        var chosen: Choice?
        for (argument, word) in zip(current.arguments, arguments) {
            switch argument.kind {
            case .choice(let choices):
                guard let choice = choices.first(where: { $0.word == word && $0.refusal == nil }) else {
                    throw fail(Suggestion.after("unknown \(argument.noun) '\(word)'", word: word, among: argument.kind.offered))
                }
                chosen = choice
            case .followingChoice:
                if let chosen, !chosen.next.contains(word) {
                    throw fail(Suggestion.after("'\(word)' is not a value for \(chosen.word)", word: word, among: chosen.next))
                }
                chosen = nil
            default:
                if let problem = argument.kind.problem(with: word, from: argument.placeholder ?? argument.noun, noun: argument.noun) {
                    throw fail(problem)
                }
                chosen = nil
            }
        }
        for long in current.required where options[long] == nil {
            throw fail("\(shown) needs \(current.option(long)?.spelled ?? long)")
        }
        for group in current.exclusive {
            let given = group.compactMap { options[$0]?.source }
            if given.count > 1 { throw fail("\(Wording.list(given, conjunction: "and")) cannot be used together") }
        }
        for option in current.options {
            guard let value = option.value else { continue }
            if options[option.long] == nil, let variable = option.environment, let text = environment(variable), !text.isEmpty {
                options[option.long] = GivenValue(text, from: variable)
            }
            if !option.checkedByCommand, let given = options[option.long],
               let problem = value.kind.problem(with: given.text, from: given.source, noun: value.noun) {
                throw fail(problem)
            }
        }
        return ParsedCommand(action, path: path, options: options, arguments: arguments)
    }
}
