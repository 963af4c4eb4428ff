/// A value as given: its text, and where it came from (the option as spelled, or the
/// environment variable), for messages that name it.
public struct GivenValue: Equatable, Sendable {
    public let text: String
    public let source: String

    public init(_ text: String, from source: String) {
        self.text = text
        self.source = source
    }
}
