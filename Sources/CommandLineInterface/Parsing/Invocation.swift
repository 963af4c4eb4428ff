import SharedLogic

/// A command line split into global options (anywhere before `--`), the command's name and
/// the command's own words. The first step of parsing: `--help` and `--version` are known
/// before the command's words are looked at.
public struct Invocation: Equatable, Sendable {
    /// Global options given, by long name; a flag's text is empty.
    public var globals: [String: GivenValue] = [:]
    public var command: String?
    public var words: [String] = []
    /// Words from this index on came after `--`: never options.
    public var literalFrom = Int.max

    public var help: Bool { globals["--help"] != nil }
    public var version: Bool { globals["--version"] != nil }

    public init() {}
}

extension CommandLineDeclaration {
    /// Finds the global options anywhere before `--`, the command and its words. An option
    /// before the command that is not global is an error; global options with a value are
    /// checked (also when they come from their environment variable).
    public func invocation(_ argv: [String], environment: (String) -> String?) throws(UsageError) -> Invocation {
        var result = Invocation()
        var index = 0
        var optionsEnded = false
        while index < argv.count {
            let word = argv[index]
            index += 1
            if !optionsEnded && word == "--" {
                optionsEnded = true
                if result.command != nil { result.literalFrom = min(result.literalFrom, result.words.count) }
                continue
            }
            if !optionsEnded && word.hasPrefix("-") && word != "-" {
                if let (option, attached, spelling) = OptionMatch.find(word, in: globalOptions) {
                    guard let value = option.value else {
                        result.globals[option.long] = GivenValue("", from: spelling)
                        continue
                    }
                    let text: String
                    if let attached {
                        text = attached
                    } else {
                        guard index < argv.count else {
                            throw UsageError(message: "\(spelling) needs \(value.wanted)", command: nil)
                        }
                        text = argv[index]
                        index += 1
                    }
                    result.globals[option.long] = GivenValue(text, from: spelling)
                    continue
                }
                if result.command == nil {
                    throw UsageError(message: Suggestion.after("unknown option '\(word)'", word: word, among: Self.spellings(globalOptions), listing: false),
                                     command: nil)
                }
            }
            if result.command == nil {
                result.command = word
                if optionsEnded { result.literalFrom = 0 }
            } else {
                result.words.append(word)
            }
        }
        for option in globalOptions {
            guard let value = option.value else { continue }
            if result.globals[option.long] == nil, let name = option.environment, let text = environment(name), !text.isEmpty {
                result.globals[option.long] = GivenValue(text, from: name)
            }
            if let given = result.globals[option.long], let problem = value.kind.problem(with: given.text, from: given.source, noun: value.noun) {
                throw UsageError(message: problem, command: nil)
            }
        }
        return result
    }
}

extension CommandLineDeclaration {
    /// Every way the options can be written: `--limit`, `-n`.
    static func spellings(_ options: [OptionDeclaration]) -> [String] {
        options.flatMap { [$0.long] + ($0.short.map { [$0] } ?? []) }
    }

    /// The error for a command name notif does not have, with the ones it probably meant.
    public func unknownCommand(_ word: String) -> UsageError {
        UsageError(message: Suggestion.after("unknown command '\(word)'", word: word, among: visibleCommands.map(\.name), listing: false),
                   command: nil)
    }
}

/// Which declared option a word spells: `--limit`, `--limit=5`, `-n`, `-n5`.
enum OptionMatch {
    /// The option, the value attached to the word (if any) and the spelling to name it by.
    static func find(_ word: String, in options: [OptionDeclaration]) -> (OptionDeclaration, String?, String)? {
        for option in options {
            if word == option.long || word == option.short { return (option, nil, word) }
            if option.value != nil, word.hasPrefix(option.long + "=") { return (option, String(word.dropFirst(option.long.count + 1)), option.long) }
        }
        for option in options {
            if let short = option.short, option.value != nil, !word.hasPrefix("--"), word.hasPrefix(short), word.count > short.count {
                return (option, String(word.dropFirst(short.count)), short)
            }
        }
        return nil
    }
}
