import SharedLogic

extension ValueKind {
    /// What is wrong with `text` as a value of this kind, naming `source` (the option as
    /// spelled, or the environment variable) and the value; nil when it is good.
    public func problem(with text: String, from source: String, noun: String = "value") -> String? {
        switch self {
        case .choice(let choices):
            guard let choice = choices.first(where: { $0.word == text }) else {
                return Suggestion.after("\(source) '\(text)' is not a \(noun)", word: text, among: offered)
            }
            return choice.refusal.map { "\(source) \($0)" }
        case .wholeNumber(let minimum, let maximum, let unit):
            switch WholeNumber.parse(text, minimum: minimum, maximum: maximum) {
            case .value: return nil
            case .tooLarge: return "\(source) \(text) is too large (at most \(maximum)\(unit.map { " " + $0 } ?? ""))"
            case .tooSmall: return "\(source) needs a number of \(minimum) or more, not \(text)"
            case .notANumber: return "\(source) needs a whole number, not '\(text)'"
            }
        case .positiveNumber:
            guard let value = Double(text), value > 0, value.isFinite else { return "\(source) needs a positive number, not '\(text)'" }
            return nil
        case .followingChoice, .text, .commandName:
            return nil
        }
    }
}
