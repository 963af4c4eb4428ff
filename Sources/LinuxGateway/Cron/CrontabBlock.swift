/// A user's crontab text with notif's managed block: the lines between the marker comments are
/// notif's, everything else is the user's and is kept byte for byte.
public struct CrontabBlock: Equatable, Sendable {
    public static let beginMarker = "# BEGIN notif managed block: changed by `notif set` and `notif apply`; edits here are replaced"
    public static let endMarker = "# END notif managed block"
    /// Each entry starts with this comment naming its reminder id.
    public static let entryPrefix = "# notif reminder: "

    /// The user's lines before the block, each with its terminating newline (the last may lack one).
    public var before: String
    /// The user's lines after the block.
    public var after: String
    /// Entries by reminder id, in block order; each value is the entry's lines, newline-terminated.
    public var entries: [(id: String, text: String)]

    public static func == (a: CrontabBlock, b: CrontabBlock) -> Bool {
        a.before == b.before && a.after == b.after
            && a.entries.map(\.id) == b.entries.map(\.id) && a.entries.map(\.text) == b.entries.map(\.text)
    }

    /// Splits crontab text. Several blocks (from a hand edit) merge into one, at the first one's place.
    public init(parsing text: String) {
        var before = "", after = ""
        var entries: [(id: String, text: String)] = []
        var inBlock = false
        var seenBlock = false
        var currentID: String?
        for line in Self.lines(of: text) {
            let content = line.utf8.last == UInt8(ascii: "\n") ? String(line.utf8.dropLast())! : line
            if content == Self.beginMarker {
                inBlock = true
                seenBlock = true
                currentID = nil
                continue
            }
            if inBlock {
                if content == Self.endMarker {
                    inBlock = false
                    continue
                }
                if content.hasPrefix(Self.entryPrefix) {
                    let id = String(content.dropFirst(Self.entryPrefix.count))
                    currentID = id
                    entries.removeAll { $0.id == id }
                    entries.append((id, content + "\n"))
                } else if let id = currentID, let index = entries.firstIndex(where: { $0.id == id }) {
                    entries[index].text += content + "\n"
                }
                continue
            }
            if seenBlock { after += line } else { before += line }
        }
        self.before = before
        self.after = after
        self.entries = entries
    }

    /// Lines of `text`, each keeping its "\n" (a final line without one is kept as is). Split on
    /// UTF-8 bytes: crontabs can be long (Debian allows 10,000 lines).
    static func lines(of text: String) -> [String] {
        var result: [String] = []
        let utf8 = text.utf8
        var start = utf8.startIndex
        var index = start
        while index != utf8.endIndex {
            let next = utf8.index(after: index)
            if utf8[index] == UInt8(ascii: "\n") {
                result.append(String(text[start..<next]))
                start = next
            }
            index = next
        }
        if start != utf8.endIndex { result.append(String(text[start...])) }
        return result
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

    /// The whole crontab again. With no entries the block disappears and the user's text is
    /// exactly what it was before notif added it.
    public var text: String {
        guard !entries.isEmpty else { return before + after }
        var head = before
        if !head.isEmpty && !head.hasSuffix("\n") { head += "\n" }
        return head + Self.beginMarker + "\n" + entries.map(\.text).joined() + Self.endMarker + "\n" + after
    }
}
