/// A whole number from the command line or the environment, with what is wrong when it is not
/// one: too large for the type is said as such, not as "not a number".
public enum WholeNumber: Equatable, Sendable {
    case value(Int64)
    case tooLarge
    case tooSmall
    case notANumber

    public static func parse(_ text: String, minimum: Int64, maximum: Int64 = .max) -> WholeNumber {
        let digits = text.hasPrefix("+") ? String(text.dropFirst()) : text
        let negative = digits.hasPrefix("-")
        let body = negative ? String(digits.dropFirst()) : digits
        guard !body.isEmpty, body.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return .notANumber }
        guard let n = Int64(negative ? "-" + body : body) else { return negative ? .tooSmall : .tooLarge }
        return n < minimum ? .tooSmall : n > maximum ? .tooLarge : .value(n)
    }
}
