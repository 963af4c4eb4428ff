/// A bad command line: the message (naming the word at fault) and the command whose usage
/// line to show (nil: point to `--help`). Exit status 2.
public struct UsageError: Error, Equatable, Sendable {
    public let message: String
    public let command: String?

    public init(message: String, command: String?) {
        self.message = message
        self.command = command
    }
}
