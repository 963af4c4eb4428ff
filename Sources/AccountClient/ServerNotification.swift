import SharedLogic

extension ServerNotification {
    /// Whether `id` is one notif keeps, logs and shows: 1 to 128 of `A-Z a-z 0-9 . _ : -` (a
    /// number id is fine). Anything else (control characters, spaces, markup) could reach a
    /// terminal or a log through the id, so such an item is skipped, never shown or recorded.
    public static func isValidID(_ id: String) -> Bool {
        let bytes = id.utf8
        guard (1...128).contains(bytes.count) else { return false }
        return bytes.allSatisfy { byte in
            (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ":") || byte == UInt8(ascii: "-")
        }
    }

    /// Whether this item's id is valid (`isValidID`).
    public var hasValidID: Bool { Self.isValidID(id) }

    /// Reads a history response: a JSON array of objects (or `{"items": [...]}`/`{"notifications": [...]}`).
    public static func list(from bytes: [UInt8]) throws(AccountError) -> [ServerNotification] {
        let document: JSONValue
        do {
            document = try JSONParser.parse(bytes)
        } catch {
            throw AccountError(.badResponse, "the server's history is not valid JSON (\(error.place))")
        }
        let items: [JSONValue]
        switch document {
        case .array(let array): items = array
        case .object:
            guard case .array(let array)? = document["notifications"] ?? document["items"] ?? document["data"] else {
                throw AccountError(.badResponse, "the server's history is not a list of notifications")
            }
            items = array
        default:
            throw AccountError(.badResponse, "the server's history is not a list of notifications")
        }
        return try items.enumerated().map { (index, item) throws(AccountError) -> ServerNotification in
            guard case .object = item else { throw AccountError(.badResponse, "history item \(index + 1) is not an object") }
            let id: String
            switch item["id"] {
            case .string(let s)?: id = s
            case .number(let n)?: id = n
            default: throw AccountError(.badResponse, "history item \(index + 1) has no id")
            }
            return ServerNotification(
                id: id,
                title: item["title"]?.stringValue ?? "",
                body: item["body"]?.stringValue ?? "",
                sentAt: item["sentAt"]?.stringValue ?? "")
        }
    }

    public var json: JSONValue {
        .object([JSONMember("id", .string(id)), JSONMember("title", .string(title)),
                 JSONMember("body", .string(body)), JSONMember("sentAt", .string(sentAt))])
    }
}
