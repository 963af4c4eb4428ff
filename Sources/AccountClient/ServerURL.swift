/// Why an Account operation failed, in words a person can act on.
public struct AccountError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Kind: Equatable, Sendable { case badURL, unknownHost, unreachable, unauthorized, refused, badResponse, tooLarge, notLoggedIn, local }
    public let kind: Kind
    public let message: String
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }
    public var description: String { message }
}

/// An Account server's base URL: `https://` anywhere, `http://` only on loopback (local use and tests).
public struct ServerURL: Equatable, Sendable, CustomStringConvertible {
    public let scheme: String
    public let host: String
    public let port: Int?
    /// The base path without a trailing slash (`""` or `/app`).
    public let path: String

    public init(parsing text: String) throws(AccountError) {
        func bad(_ why: String) -> AccountError { AccountError(.badURL, "'\(text)' is not a usable server URL: \(why)") }
        guard let schemeEnd = text.firstRange(of: "://") else { throw bad("it needs https://") }
        let scheme = text[..<schemeEnd.lowerBound].lowercased()
        guard scheme == "https" || scheme == "http" else { throw bad("only https:// servers are allowed") }
        var rest = text[schemeEnd.upperBound...]
        if rest.contains(where: { $0 == "?" || $0 == "#" }) { throw bad("it must not have a query or fragment") }
        if rest.contains(where: { $0.isWhitespace || $0 == "\"" || $0 == "\\" || $0.asciiValue.map { $0 < 0x20 } ?? false }) {
            throw bad("it contains spaces, quotes or control characters")
        }
        let authorityEnd = rest.firstIndex(of: "/") ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        rest = rest[authorityEnd...]
        if authority.contains("@") { throw bad("user names or passwords in the URL are not allowed; give the token on stdin") }
        var host = String(authority)
        var port: Int?
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { throw bad("an unclosed [ in the host") }
            let after = host[host.index(after: close)...]
            if after.hasPrefix(":") {
                guard let p = Int(after.dropFirst()), (1...65535).contains(p) else { throw bad("a bad port") }
                port = p
            } else if !after.isEmpty { throw bad("a bad host") }
            host = String(host[...close])
        } else if let colon = host.lastIndex(of: ":") {
            guard let p = Int(host[host.index(after: colon)...]), (1...65535).contains(p) else { throw bad("a bad port") }
            port = p
            host = String(host[..<colon])
        }
        guard !host.isEmpty else { throw bad("it has no host") }
        if scheme == "http" && !Self.isLoopback(host) {
            throw bad("only https:// servers are allowed (http:// only on this machine: localhost, 127.0.0.1, [::1])")
        }
        var path = String(rest)
        while path.hasSuffix("/") { path.removeLast() }
        self.scheme = scheme
        self.host = host.lowercased()
        self.port = port
        self.path = path
    }

    static func isLoopback(_ host: String) -> Bool {
        let h = host.lowercased()
        if h == "localhost" || h == "[::1]" { return true }
        let parts = h.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
    }

    public var description: String {
        scheme + "://" + host + (port.map { ":\($0)" } ?? "") + path
    }

    /// The URL of an API path (`/api/v1/app/notifications`).
    public func endpoint(_ apiPath: String) -> String { description + apiPath }
}
