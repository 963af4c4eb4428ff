/// Whose each line of a crontab is, read once for both readers of notif's blocks
/// (`CrontabBlock.init(parsing:owner:)` and `CrontabBlock.withoutEveryBlock`), so they can
/// never disagree. Inside a block notif reads: its markers, its comments, its SHELL and PATH
/// lines before the first entry, the jobs that run `notif deliver`, the SHELL and PATH lines
/// after its jobs that its closing comment (or, in blocks of earlier notifs, its end) follows
/// (its give-backs), and the closing comment. Every other line is the user's, inside a block or not.
struct CrontabLineRoles {
    enum Role: Equatable {
        /// A block notif reads begins (`tag` nil: the untagged block of an earlier notif).
        case begin(tag: String?)
        case end
        /// One of the block's SHELL and PATH lines before its first entry.
        case assignment
        /// A SHELL or PATH line after the block's jobs: what it gives back to the lines below.
        case giveBack
        /// `# settings: PATH`.
        case settings(String)
        /// `# notif reminder: ID`, in the block of `tag`.
        case entry(String, tag: String?)
        /// A job of the current entry (its text).
        case job(String)
        case closing
        /// The user's line; `inBlock`: put inside a block notif reads.
        case users(inBlock: Bool)
    }

    struct Line {
        let line: ArraySlice<UInt8>
        let content: ArraySlice<UInt8>
        /// From 1.
        let number: Int
        let role: Role
    }

    /// Reads `bytes`, calling `visit` for every line in order. `reads` says which blocks are
    /// notif's to read (by tag): the others are the user's lines, byte for byte.
    static func scan(_ bytes: [UInt8], reads: (String?) -> Bool, _ visit: (Line) -> Void) {
        let newline = UInt8(ascii: "\n")
        let closing = Array(CrontabBlock.closingComment.utf8)
        let settings = Array(CrontabBlock.settingsPrefix.utf8), entry = Array(CrontabBlock.entryPrefix.utf8)
        /// Inside a block notif reads: its tag, whether an entry began, whether it is closed.
        var block: (tag: String?, afterEntry: Bool, closed: Bool)?
        // SHELL and PATH lines after a job: give-backs when the closing comment or the end
        // follows them, else the user's.
        var pending: [(line: ArraySlice<UInt8>, content: ArraySlice<UInt8>, number: Int)] = []
        func settle(_ role: Role) {
            for held in pending { visit(Line(line: held.line, content: held.content, number: held.number, role: role)) }
            pending = []
        }
        var number = 0
        var start = bytes.startIndex
        while start != bytes.endIndex {
            let lineEnd = bytes[start...].firstIndex(of: newline)
            let next = lineEnd.map { $0 + 1 } ?? bytes.endIndex
            let line = bytes[start..<next], content = bytes[start..<(lineEnd ?? bytes.endIndex)]
            start = next
            number += 1
            func emit(_ role: Role) { visit(Line(line: line, content: content, number: number, role: role)) }
            let marker = CrontabBlock.marker(content)
            let assignment = CronEnvironment.assignsBlocksVariable(content)
            if let current = block, !current.closed, marker == nil, content.elementsEqual(closing) {
                settle(.giveBack)
                block?.closed = true
                emit(.closing)
                continue
            }
            // Only the block's own variables can be its give-backs: any other line ends a run of them.
            if block != nil, marker == nil, !assignment { settle(.users(inBlock: true)) }
            if let marker {
                // A block left open ends where the next one begins.
                settle(.giveBack)
                if marker.begin, reads(marker.tag) {
                    block = (marker.tag, false, false)
                    emit(.begin(tag: marker.tag))
                    continue
                }
                let wasOpen = block != nil
                block = nil
                if !marker.begin, wasOpen {
                    emit(.end)
                    continue
                }
                emit(.users(inBlock: false))
                continue
            }
            guard let current = block, !current.closed, CrontabBlock.isNotifs(content, afterEntry: current.afterEntry) else {
                emit(.users(inBlock: block != nil))
                continue
            }
            if assignment {
                if current.afterEntry { pending.append((line, content, number)) } else { emit(.assignment) }
            } else if content.starts(with: settings) {
                emit(.settings(String(decoding: content.dropFirst(settings.count), as: UTF8.self)))
            } else if content.starts(with: entry) {
                block?.afterEntry = true
                emit(.entry(String(decoding: content.dropFirst(entry.count), as: UTF8.self), tag: current.tag))
            } else {
                emit(.job(String(decoding: content, as: UTF8.self)))
            }
        }
        settle(.giveBack)
    }
}
