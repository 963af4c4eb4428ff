import SharedLogic

/// What a value on the command line may be. It decides how the parser checks the value, how
/// help and the man page name it, what the errors say, and what completion offers.
public enum ValueKind: Sendable {
    /// One of a fixed list of words.
    case choice([Choice])
    /// One of the words the argument before it allows (`set SETTING VALUE`: the setting's values).
    case followingChoice
    /// A whole number from `minimum` to `maximum`; `unit` names what it counts ("seconds").
    case wholeNumber(minimum: Int64, maximum: Int64, unit: String?)
    /// A number above zero, fractions allowed.
    case positiveNumber
    /// Any text (a URL, an id checked elsewhere).
    case text
    /// The name of one of the program's commands (`help COMMAND`).
    case commandName

    /// The words completion offers (hidden and refused words left out).
    public var offered: [String] {
        guard case .choice(let choices) = self else { return [] }
        return choices.filter { !$0.hidden && $0.refusal == nil }.map(\.word)
    }

    /// How a missing value is asked for: "a number", "a value: systemd, cron or embedded".
    public var wanted: String {
        switch self {
        case .choice: return "a value: " + Wording.list(offered)
        case .followingChoice: return "a value"
        case .wholeNumber(_, _, let unit): return "a number" + (unit.map { " of " + $0 } ?? "")
        case .positiveNumber: return "a positive number"
        case .text: return "a value"
        case .commandName: return "a command"
        }
    }
}

/// One word a choice accepts, with what it means.
public struct Choice: Sendable {
    public let word: String
    public let summary: String
    /// The words the next argument accepts after this one (`sound` → default, chime, …).
    public let next: [String]
    /// Accepted but not shown in help or completion (`grant`, another word for `allow`).
    public let hidden: Bool
    /// Refused with this explanation instead of "not a value" (`--scheduler auto`).
    public let refusal: String?

    public init(_ word: String, _ summary: String = "", next: [String] = [], hidden: Bool = false, refusal: String? = nil) {
        self.word = word
        self.summary = summary
        self.next = next
        self.hidden = hidden
        self.refusal = refusal
    }
}
