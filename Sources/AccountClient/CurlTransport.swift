import LinuxGateway

/// HTTP through curl, configured on stdin (`--config -`) so the bearer token never appears in
/// a process's arguments. curl obeys notif's rules only: `-q` (first, the only place curl
/// honours it) keeps a user's `.curlrc` out, so nothing there can make it follow a redirect or
/// write a file. No redirects are followed (`max-redirs = 0` as well), a loopback server is
/// never reached through a proxy (`noproxy = "*"`: the bearer token would cross the proxy in
/// clear text over http://), responses over `maximumBytes` are refused, and every request has
/// a hard time limit.
public struct CurlTransport: HTTPTransport {
    let runner: any ProcessRunner
    let timeout: Double
    let maximumBytes: Int

    public init(runner: any ProcessRunner, timeout: Double = 15, maximumBytes: Int = 1 << 20) {
        self.runner = runner
        self.timeout = timeout
        self.maximumBytes = maximumBytes
    }

    static let statusMarker = "\n--notif-http-status:"

    /// curl's argv: `-q` must come first (curl ignores it anywhere else), then the config on stdin.
    static let argv = ["curl", "-q", "--config", "-"]

    /// The curl config for `request` (what goes to curl's stdin).
    func config(for request: HTTPRequest) -> String {
        var lines = [
            "url = \(quote(request.url))",
            "request = \(quote(request.method))",
            "silent", "show-error",
            // {a,b} and [1-3] in a URL are curl's globbing: never, one URL is one request.
            "globoff",
            "proto = \"=https,http\"",
            "max-redirs = 0",
            "max-time = \(Int(timeout))",
            "connect-timeout = \(Int(max(1, timeout / 3)))",
            "max-filesize = \(maximumBytes)",
            "write-out = \(quote(Self.statusMarker + "%{http_code}"))",
        ]
        if Self.isLoopback(request.url) { lines.append("noproxy = \"*\"") }
        for header in request.headers { lines.append("header = \(quote(header))") }
        if let body = request.body { lines.append("data-binary = \(quote(String(decoding: body, as: UTF8.self)))") }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Whether `url`'s host is this machine (`localhost`, `127.x.x.x`, `[::1]`).
    static func isLoopback(_ url: String) -> Bool {
        guard let server = try? ServerURL(parsing: url) else { return false }
        return ServerURL.isLoopback(server.host)
    }

    /// A curl config string: double quotes with backslash escapes.
    func quote(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    public func send(_ request: HTTPRequest) throws(AccountError) -> HTTPResponse {
        let result: ProcessResult
        do {
            result = try runner.run(Self.argv, input: Array(config(for: request).utf8), environment: [:], timeout: timeout + 5)
        } catch {
            throw AccountError(.local, error.notFound ? "curl is not installed (Debian: apt install curl)" : error.description)
        }
        if result.timedOut { throw AccountError(.unreachable, "the server did not answer within \(Int(timeout)) s") }
        switch result.exitStatus {
        case 0: break
        case 63: throw AccountError(.tooLarge, "the server's answer is larger than \(maximumBytes) bytes; refused")
        case 6: throw AccountError(.unknownHost, "the server's host name does not resolve (\(result.stderrText)); check the URL")
        case 7: throw AccountError(.unreachable, "cannot reach the server (\(result.stderrText))")
        case 28: throw AccountError(.unreachable, "the server did not answer within \(Int(timeout)) s")
        case 35, 51, 58, 60: throw AccountError(.refused, "TLS failed (\(result.stderrText))")
        default: throw AccountError(.unreachable, "curl failed (\(result.failureSummary))")
        }
        // An answer without a length is not stopped by max-filesize (curl before 8.4): the
        // runner keeps only its first 16 MB, status line included, so that is too large too.
        if result.stdout.count >= SpawnProcessRunner.outputLimit {
            throw AccountError(.tooLarge, "the server's answer is larger than \(maximumBytes) bytes; refused")
        }
        var body = result.stdout
        let marker = Array(Self.statusMarker.utf8)
        guard let at = lastIndex(of: marker, in: body),
              let status = Int(String(decoding: body[(at + marker.count)...], as: UTF8.self)) else {
            throw AccountError(.badResponse, "no HTTP status in curl's output")
        }
        body.removeSubrange(at...)
        if body.count > maximumBytes {
            throw AccountError(.tooLarge, "the server's answer is larger than \(maximumBytes) bytes; refused")
        }
        return HTTPResponse(status: status, body: body)
    }

    private func lastIndex(of needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        var i = haystack.count - needle.count
        while i >= 0 {
            if haystack[i..<(i + needle.count)].elementsEqual(needle) { return i }
            i -= 1
        }
        return nil
    }
}
