/// The configuration list: every configuration notif wrote entries for, so
/// `notif reset --entries` finds those no variable or entry names any more. A text file: `#`
/// comment lines, then one `ConfigurationRecord` a line. A comment (but notif's own header) and a
/// line that is not a record are kept byte for byte (never dropped by a rewrite); the second is
/// reported, with its number.
public struct ConfigurationList: Equatable, Sendable {
    /// A line of the file: a record, someone's comment, or bytes that are not a record (with why).
    public enum Line: Equatable, Sendable {
        case record(ConfigurationRecord)
        case comment([UInt8])
        case unreadable(bytes: [UInt8], number: Int, why: String)
    }

    public private(set) var lines: [Line]

    public static let header = "# notif: the configurations notif wrote entries for (one JSON object a line); notif reset --entries reads it and removes their entries"

    public init(lines: [Line] = []) { self.lines = lines }

    /// The list in `bytes` (blank lines and notif's header skipped; comments kept).
    public init(parsing bytes: [UInt8]) {
        lines = []
        for (index, line) in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated() {
            let text = Array(line)
            guard let first = text.first(where: { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") && $0 != UInt8(ascii: "\r") }) else { continue }
            if first == UInt8(ascii: "#") {
                if text != Array(Self.header.utf8) { lines.append(.comment(text)) }
                continue
            }
            switch ConfigurationRecord.parse(text) {
            case .success(let record): if !records.contains(record) { lines.append(.record(record)) }
            case .failure(let error): lines.append(.unreadable(bytes: text, number: index + 1, why: error.message))
            }
        }
    }

    public var records: [ConfigurationRecord] {
        lines.compactMap { if case .record(let record) = $0 { record } else { nil } }
    }

    /// `line 3: not JSON (…)` for each line that is not a record.
    public var problems: [String] {
        lines.compactMap { if case .unreadable(_, let number, let why) = $0 { "line \(number): \(why)" } else { nil } }
    }

    /// Whether nothing is left to keep, not even a comment (the file can go).
    public var isEmpty: Bool { lines.isEmpty }

    /// The list with `record` at the end; nil when it is there already (nothing to write).
    public func adding(_ record: ConfigurationRecord) -> ConfigurationList? {
        guard !records.contains(record) else { return nil }
        return ConfigurationList(lines: lines + [.record(record)])
    }

    /// The list without `gone` (lines that are not records stay).
    public func removing(_ gone: Set<ConfigurationRecord>) -> ConfigurationList {
        ConfigurationList(lines: lines.filter { if case .record(let record) = $0 { !gone.contains(record) } else { true } })
    }

    /// The file's bytes: the header, then each line as it was read or written.
    public var bytes: [UInt8] {
        var out = Array((Self.header + "\n").utf8)
        for line in lines {
            switch line {
            case .record(let record): out += Array(record.line.utf8)
            case .comment(let bytes), .unreadable(let bytes, _, _): out += bytes
            }
            out.append(UInt8(ascii: "\n"))
        }
        return out
    }
}
