/// A user's crontab with notif's managed block: the lines between the marker comments are
/// notif's, everything else is the user's and is kept byte for byte, whatever its encoding
/// (a crontab is bytes: Latin-1 comments and file names, or invalid UTF-8, come back unchanged).
public struct CrontabBlock: Equatable, Sendable {
    public static let beginMarker = "# BEGIN notif managed block: changed by `notif set` and `notif apply`; edits here are replaced"
    public static let endMarker = "# END notif managed block"
    /// Each entry starts with this comment naming its reminder id.
    public static let entryPrefix = "# notif reminder: "

    /// The user's bytes before the block, each line with its terminating newline (the last may lack one).
    public var before: [UInt8]
    /// The user's bytes after the block.
    public var after: [UInt8]
    /// Entries by reminder id, in block order; each value is the entry's lines, newline-terminated.
    /// notif writes these itself, so they are text.
    public var entries: [(id: String, text: String)]

    public static func == (a: CrontabBlock, b: CrontabBlock) -> Bool {
        a.before == b.before && a.after == b.after
            && a.entries.map(\.id) == b.entries.map(\.id) && a.entries.map(\.text) == b.entries.map(\.text)
    }

    /// Splits a crontab as `crontab -l` printed it. Several blocks (from a hand edit) merge into
    /// one, at the first one's place. Lines are split on bytes, never decoded: crontabs can be
    /// long (Debian allows 10,000 lines) and need not be UTF-8.
    public init(parsing bytes: [UInt8]) {
        let begin = Array(Self.beginMarker.utf8), end = Array(Self.endMarker.utf8), prefix = Array(Self.entryPrefix.utf8)
        let newline = UInt8(ascii: "\n")
        var before: [UInt8] = [], after: [UInt8] = []
        var entries: [(id: String, text: String)] = []
        var inBlock = false
        var seenBlock = false
        var currentID: String?
        var start = bytes.startIndex
        while start != bytes.endIndex {
            let lineEnd = bytes[start...].firstIndex(of: newline)
            let next = lineEnd.map { $0 + 1 } ?? bytes.endIndex
            let line = bytes[start..<next]
            let content = bytes[start..<(lineEnd ?? bytes.endIndex)]
            start = next
            if content.elementsEqual(begin) {
                inBlock = true
                seenBlock = true
                currentID = nil
                continue
            }
            if inBlock {
                if content.elementsEqual(end) {
                    inBlock = false
                    continue
                }
                // Inside the block everything is notif's and is rewritten: text is enough.
                let text = String(decoding: content, as: UTF8.self)
                if content.starts(with: prefix) {
                    let id = String(decoding: content.dropFirst(prefix.count), as: UTF8.self)
                    currentID = id
                    entries.removeAll { $0.id == id }
                    entries.append((id, text + "\n"))
                } else if let id = currentID, let index = entries.firstIndex(where: { $0.id == id }) {
                    entries[index].text += text + "\n"
                }
                continue
            }
            if seenBlock { after += line } else { before += line }
        }
        self.before = before
        self.after = after
        self.entries = entries
    }

    /// Splits UTF-8 crontab text (tests, and callers that only have text).
    public init(parsing text: String) {
        self.init(parsing: Array(text.utf8))
    }

    public var installed: [String: String] {
        Dictionary(entries.map { ($0.id, $0.text) }, uniquingKeysWith: { _, last in last })
    }

    public mutating func set(_ id: String, to text: String) {
        if let index = entries.firstIndex(where: { $0.id == id }) {
            entries[index].text = text
        } else {
            entries.append((id, text))
        }
    }

    public mutating func remove(_ id: String) {
        entries.removeAll { $0.id == id }
    }

    /// The whole crontab again, as bytes for `crontab -`. With no entries the block disappears
    /// and the user's bytes are exactly what they were before notif added it.
    public var bytes: [UInt8] {
        guard !entries.isEmpty else { return before + after }
        var result = before
        if let last = result.last, last != UInt8(ascii: "\n") { result.append(UInt8(ascii: "\n")) }
        result += Array((Self.beginMarker + "\n" + entries.map(\.text).joined() + Self.endMarker + "\n").utf8)
        result += after
        return result
    }
}
