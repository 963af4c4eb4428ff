import SharedLogic

/// The Account server's app API: device-token registration and notification history.
public struct AccountAPI: Sendable {
    public let server: ServerURL
    let transport: any HTTPTransport

    public init(server: ServerURL, transport: any HTTPTransport) {
        self.server = server
        self.transport = transport
    }

    public static let deviceTokensPath = "/api/v1/app/device-tokens"
    public static let notificationsPath = "/api/v1/app/notifications"

    /// `POST /api/v1/app/device-tokens` with `{"token", "platform": "linux", "appVersion"}`.
    public func register(deviceToken: String, authToken: String, appVersion: String) throws(AccountError) {
        let body = JSONWriter.compact(.object([
            JSONMember("token", .string(deviceToken)), JSONMember("platform", .string("linux")),
            JSONMember("appVersion", .string(appVersion)),
        ]))
        let response = try transport.send(HTTPRequest(
            method: "POST", url: server.endpoint(Self.deviceTokensPath),
            headers: headers(authToken) + ["Content-Type: application/json"], body: Array(body.utf8)))
        try check(response, doing: "register this device")
    }

    /// `DELETE /api/v1/app/device-tokens/{token}`.
    public func unregister(deviceToken: String, authToken: String) throws(AccountError) {
        let response = try transport.send(HTTPRequest(
            method: "DELETE", url: server.endpoint(Self.deviceTokensPath + "/" + percentEncoded(deviceToken)),
            headers: headers(authToken)))
        if response.status == 404 { return }
        try check(response, doing: "unregister this device")
    }

    /// `GET /api/v1/app/notifications`.
    public func history(authToken: String) throws(AccountError) -> [ServerNotification] {
        let response = try transport.send(HTTPRequest(
            method: "GET", url: server.endpoint(Self.notificationsPath), headers: headers(authToken) + ["Accept: application/json"]))
        try check(response, doing: "load the notification history")
        return try ServerNotification.list(from: response.body)
    }

    private func headers(_ authToken: String) -> [String] {
        ["Authorization: Bearer " + authToken, "User-Agent: notif"]
    }

    private func check(_ response: HTTPResponse, doing what: String) throws(AccountError) {
        switch response.status {
        case 200..<300: return
        case 401, 403:
            throw AccountError(.unauthorized, "the server refused the auth token (\(response.status)); log in again with `notif account login`")
        case 300..<400:
            throw AccountError(.refused, "the server answered with a redirect (\(response.status)); notif does not follow redirects, check the server URL")
        default:
            throw AccountError(.refused, "the server could not \(what) (HTTP \(response.status))")
        }
    }

    private func percentEncoded(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            if (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || byte == 0x2D || byte == 0x5F || byte == 0x2E {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                out += "%" + Hex.of(byte, width: 2).uppercased()
            }
        }
        return out
    }
}
