/// One notification from an Account project's server history (`id`, `title`, `body`, `sentAt`;
/// extra fields ignored), as `account` commands and the page's History list it.
public struct ServerNotification: Equatable, Sendable {
    public let id: String
    public let title: String
    public let body: String
    public let sentAt: String

    public init(id: String, title: String, body: String, sentAt: String) {
        self.id = id
        self.title = title
        self.body = body
        self.sentAt = sentAt
    }
}
