/// One command (or sub-command): its name, what it does, its options and arguments, and
/// which options go together. Parsing, usage lines, help, the man page and completion all
/// come from it.
public struct CommandDeclaration: Sendable {
    public let name: String
    /// What it runs; nil only for a command that has sub-commands (each has its own).
    public let action: CommandAction?
    /// One line, lower case, no full stop: "change a setting, then apply it".
    public let summary: String
    /// Paragraphs for `--help` and the man page (blank lines between paragraphs; lines that
    /// start with two spaces are shown as they are, as examples).
    public let details: String
    public let options: [OptionDeclaration]
    public let arguments: [ArgumentDeclaration]
    /// `account login|logout|status`: the first word chooses one; nothing else follows it here.
    public let subcommands: [CommandDeclaration]
    /// What a sub-command is called in messages ("account action").
    public let subcommandNoun: String
    /// Groups of options (long names) of which at most one may be given.
    public let exclusive: [[String]]
    /// Options (long names) that must be given.
    public let required: [String]
    /// Not in help, the man page or completion (what notif runs itself).
    public let hidden: Bool

    /// `action`: what the command runs; nil only for one with `subcommands`.
    public init(_ name: String, _ action: CommandAction? = nil, summary: String, details: String = "", options: [OptionDeclaration] = [],
                arguments: [ArgumentDeclaration] = [], subcommands: [CommandDeclaration] = [], subcommandNoun: String = "action",
                exclusive: [[String]] = [], required: [String] = [], hidden: Bool = false) {
        self.name = name
        self.action = action
        self.summary = summary
        self.details = details
        self.options = options
        self.arguments = arguments
        self.subcommands = subcommands
        self.subcommandNoun = subcommandNoun
        self.exclusive = exclusive
        self.required = required
        self.hidden = hidden
    }

    public func option(_ long: String) -> OptionDeclaration? { options.first { $0.long == long } }

    public func subcommand(_ name: String) -> CommandDeclaration? { subcommands.first { $0.name == name } }

    /// A group of flags, one of which may be given, that holds `long` (shown `[--a|--b]`).
    func flagGroup(with long: String) -> [String]? {
        exclusive.first { group in group.contains(long) && group.allSatisfy { option($0)?.value == nil } }
    }

    /// What follows the command's name in a usage line: options (an exclusive group as
    /// `[--a|--b]`), then arguments; sub-commands as `login --server URL | logout | status`.
    public var usageTail: String {
        if !subcommands.isEmpty {
            return subcommands.map { ([$0.name] + ($0.usageTail.isEmpty ? [] : [$0.usageTail])).joined(separator: " ") }
                .joined(separator: " | ")
        }
        var parts: [String] = []
        var done: Set<String> = []
        for option in options where !done.contains(option.long) {
            if let group = flagGroup(with: option.long) {
                parts.append("[" + group.compactMap { self.option($0)?.usageForm }.joined(separator: "|") + "]")
                done.formUnion(group)
            } else {
                parts.append(required.contains(option.long) ? option.usageForm : "[\(option.usageForm)]")
                done.insert(option.long)
            }
        }
        parts += arguments.map(\.usageForm)
        return parts.joined(separator: " ")
    }
}
