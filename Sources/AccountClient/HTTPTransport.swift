/// An HTTP response: status and body bytes.
public struct HTTPResponse: Equatable, Sendable {
    public let status: Int
    public let body: [UInt8]
    public init(status: Int, body: [UInt8]) {
        self.status = status
        self.body = body
    }
}

/// One HTTP request as the Account API makes it.
public struct HTTPRequest: Equatable, Sendable {
    public var method: String
    public var url: String
    /// Header lines; may hold the bearer token, so never log or print them.
    public var headers: [String]
    public var body: [UInt8]?

    public init(method: String, url: String, headers: [String], body: [UInt8]? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }
}

/// Sends requests. The real one runs curl; tests can swap in a recorder.
public protocol HTTPTransport: Sendable {
    func send(_ request: HTTPRequest) throws(AccountError) -> HTTPResponse
}
