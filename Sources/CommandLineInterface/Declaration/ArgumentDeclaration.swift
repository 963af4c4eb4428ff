import SharedLogic

/// One positional argument of a command.
public struct ArgumentDeclaration: Sendable {
    /// The name usage lines show (`SETTING`); nil shows the choices themselves (`allow|deny|…`).
    public let placeholder: String?
    /// What one value is called in messages and help: "setting", "permission action".
    public let noun: String
    public let kind: ValueKind
    public let optional: Bool

    public init(_ placeholder: String?, noun: String, _ kind: ValueKind, optional: Bool = false) {
        self.placeholder = placeholder
        self.noun = noun
        self.kind = kind
        self.optional = optional
    }

    /// `SETTING`, `allow|deny|reset|status`, `[COMMAND]`.
    public var usageForm: String {
        let shown = placeholder ?? kind.offered.joined(separator: "|")
        return optional ? "[\(shown)]" : shown
    }

    /// How a missing one is asked for: "a SETTING", "a reminder ID", "one of allow, deny, reset or status".
    public var wanted: String {
        if let placeholder {
            let named = placeholder.lowercased() == noun ? placeholder : noun + " " + placeholder
            return (named.first.map { "aeiou".contains($0) } == true ? "an " : "a ") + named
        }
        return "one of " + Wording.list(kind.offered)
    }
}
