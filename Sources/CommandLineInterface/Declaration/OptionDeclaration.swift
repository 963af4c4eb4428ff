/// One option: its spellings, its value (if it takes one) and what it does.
public struct OptionDeclaration: Sendable {
    /// `--limit`.
    public let long: String
    /// `-n`: also written with the value attached (`-n5`) when the option takes one.
    public let short: String?
    /// The value's name in usage lines (`COUNT`) and its kind; nil for a flag.
    public let value: ValueDeclaration?
    public let summary: String
    /// An environment variable that gives the value when the option is not on the command line.
    public let environment: String?
    /// The command checks the value itself (it applies only in some situations), not the parser.
    public let checkedByCommand: Bool

    public init(_ long: String, short: String? = nil, value: ValueDeclaration? = nil, summary: String,
                environment: String? = nil, checkedByCommand: Bool = false) {
        self.long = long
        self.short = short
        self.value = value
        self.summary = summary
        self.environment = environment
        self.checkedByCommand = checkedByCommand
    }

    /// `--limit COUNT`, or `--json`.
    public var spelled: String { long + (value.map { " " + $0.placeholder } ?? "") }

    /// How the usage line shows it: the short spelling when there is one (`-n COUNT`).
    public var usageForm: String { (short ?? long) + (value.map { " " + $0.placeholder } ?? "") }

    /// `-n, --limit COUNT` for option tables.
    public var tableForm: String { (short.map { $0 + ", " } ?? "") + spelled }
}

/// An option's value: its name in usage lines and its kind.
public struct ValueDeclaration: Sendable {
    public let placeholder: String
    public let kind: ValueKind
    /// What one value is called in messages: "'anacron' is not a scheduler".
    public let noun: String

    public init(_ placeholder: String, _ kind: ValueKind, noun: String = "value") {
        self.placeholder = placeholder
        self.kind = kind
        self.noun = noun
    }

    /// How a missing value is asked for: "a number", "a URL".
    public var wanted: String {
        if case .text = kind { return "a " + placeholder }
        return kind.wanted
    }
}
