import SharedLogic

/// A user's crontab as one configuration of notif sees it: the lines between its own marker
/// comments (tagged with its `ConfigurationID`) are its block; everything else (the user's
/// lines, and the blocks of the user's other configurations) is kept byte for byte, whatever
/// its encoding (a crontab is bytes: Latin-1 comments and file names, or invalid UTF-8, come
/// back unchanged). An untagged block, written before blocks carried a tag, belongs to the
/// default configuration, which rewrites it as its own.
public struct CrontabBlock: Equatable, Sendable {
    static let beginPrefix = "# BEGIN notif managed block"
    static let endPrefix = "# END notif managed block"
    static let beginSuffix = ": changed by `notif set` and `notif apply`; edits here are replaced"
    /// The first line of the untagged block of earlier versions.
    public static let untaggedBeginMarker = beginPrefix + beginSuffix
    public static let untaggedEndMarker = endPrefix
    /// Each entry starts with this comment naming its reminder id.
    public static let entryPrefix = "# notif reminder: "
    /// The block's last line before its end: what follows it inside the block (a line put just
    /// before the end by hand) is the user's, never a give-back. Blocks of earlier notifs have
    /// none: there the SHELL and PATH lines the end follows are the give-backs.
    public static let closingComment = "# end of notif's lines: SHELL and PATH below are yours"

    public let owner: ConfigurationID
    /// The bytes before this configuration's block, each line with its terminating newline (the last may lack one).
    public var before: [UInt8]
    /// The bytes after it.
    public var after: [UInt8]
    /// Entries by reminder id, in block order; each value is the entry's lines, newline-terminated.
    /// notif writes these itself, so they are text.
    public var entries: [(id: String, text: String)]
    /// Ids found in an untagged block (taken over, and written back in this configuration's block).
    public var untagged: Set<String>
    /// The assignment lines found in this configuration's block (`SHELL=/bin/sh`), in order,
    /// without their newlines: what the block's lines run under (`CronEnvironment`).
    public var environment: [[UInt8]]
    /// The line numbers (from 1) in the parsed table of the lines `before` and `after` hold, in
    /// order: where a line of the table notif writes was in the table it read.
    public var keptLines: [Int]
    /// Lines of the user's were inside this configuration's block (they are kept, below it).
    public var heldByHand = false
    /// The entries that a `SHELL=` line put inside notif's block by hand comes before (cron runs
    /// them with that shell, which may not run them at all), with the line.
    public var shellByHand: [String: String] = [:]

    public static func == (a: CrontabBlock, b: CrontabBlock) -> Bool {
        a.owner == b.owner && a.before == b.before && a.after == b.after && a.untagged == b.untagged && a.environment == b.environment
            && a.entries.map(\.id) == b.entries.map(\.id) && a.entries.map(\.text) == b.entries.map(\.text)
    }

    public static func beginMarker(_ owner: ConfigurationID) -> String { beginPrefix + " " + owner.tag + beginSuffix }
    public static func endMarker(_ owner: ConfigurationID) -> String { endPrefix + " " + owner.tag }

    /// What a marker line says: a block of `tag` (nil: untagged) begins or ends; nil for other lines.
    static func marker(_ line: ArraySlice<UInt8>) -> (begin: Bool, tag: String?)? {
        let text: String
        if line.starts(with: beginPrefix.utf8) {
            text = String(decoding: line.dropFirst(beginPrefix.utf8.count), as: UTF8.self)
            if text == beginSuffix { return (true, nil) }
            guard text.hasPrefix(" "), text.hasSuffix(beginSuffix) else { return nil }
            let tag = text.dropFirst().dropLast(beginSuffix.count)
            return ShortHash.isHash(tag) ? (true, String(tag)) : nil
        }
        if line.starts(with: endPrefix.utf8) {
            text = String(decoding: line.dropFirst(endPrefix.utf8.count), as: UTF8.self)
            if text.isEmpty { return (false, nil) }
            guard text.hasPrefix(" "), ShortHash.isHash(text.dropFirst()) else { return nil }
            return (false, String(text.dropFirst()))
        }
        return nil
    }

    /// Splits a crontab as `crontab -l` printed it. Several blocks of this configuration (from a
    /// hand edit, or its untagged block next to its tagged one) merge into one, at the first
    /// one's place. Lines are split on bytes, never decoded: crontabs can be long (Debian allows
    /// 10,000 lines) and need not be UTF-8.
    public init(parsing bytes: [UInt8], owner: ConfigurationID) {
        self.owner = owner
        var before: [UInt8] = [], after: [UInt8] = []
        var entries: [(id: String, text: String)] = []
        var untagged = Set<String>()
        var environment: [[UInt8]] = []
        var byHand = false
        var shellByHand: [String: String] = [:]
        // The last SHELL line of the user's inside the block, which cron uses for the jobs after it.
        var handShell: String?
        var keptLines: [Int] = []
        var seenOwnBlock = false
        var currentID: String?
        CrontabLineRoles.scan(bytes, reads: owner.owns(tag:)) { line in
            switch line.role {
            case .begin:
                seenOwnBlock = true
                currentID = nil
            case .end, .settings, .closing:
                break
            case .assignment, .giveBack:
                // The block's, not an entry's (and may be the user's bytes).
                environment.append(Array(line.content))
                // notif's own SHELL line after a user's puts the shell back.
                if line.role == .assignment, CronEnvironment.assignsShell(line.content) { handShell = nil }
            case .entry(let id, let tag):
                currentID = id
                entries.removeAll { $0.id == id }
                entries.append((id, String(decoding: line.content, as: UTF8.self) + "\n"))
                if tag == nil { untagged.insert(id) } else { untagged.remove(id) }
            case .job(let text):
                // notif's lines inside this configuration's block are rewritten: text is enough.
                guard let id = currentID, let index = entries.firstIndex(where: { $0.id == id }) else { break }
                entries[index].text += text + "\n"
                // The daily lines are the ones that bring the reminder at its time.
                if let handShell, !text.hasPrefix("@") { shellByHand[id] = handShell }
            case .users(let inBlock):
                // The user's lines and other configurations' blocks, exactly as they were.
                if inBlock {
                    byHand = true
                    if CronEnvironment.assignsShell(line.content) { handShell = String(decoding: line.content, as: UTF8.self) }
                }
                if seenOwnBlock { after += line.line } else { before += line.line }
                keptLines.append(line.number)
            }
        }
        self.before = before
        self.after = after
        self.entries = entries
        self.untagged = untagged
        self.environment = environment
        self.keptLines = keptLines
        self.heldByHand = byHand
        self.shellByHand = shellByHand
    }

    /// Whether a line inside notif's block is one notif writes: its comments (`# settings:`,
    /// `# notif reminder:`), a job that runs `notif deliver`, its own `SHELL=/bin/sh` and
    /// `PATH=/usr/bin:/bin` before the entries, and SHELL and PATH lines after them (what it gives
    /// back, when the block's end follows). Any other line was put there by hand; it is the
    /// user's and is kept (below the block).
    static func isNotifs(_ line: ArraySlice<UInt8>, afterEntry: Bool) -> Bool {
        if line.starts(with: settingsPrefix.utf8) || line.starts(with: entryPrefix.utf8) { return true }
        if CronEnvironment.assignedName(line) != nil {
            return afterEntry ? CronEnvironment.assignsBlocksVariable(line) : CronEnvironment.lines.contains(Array(line))
        }
        return CommandWords.cron(line: String(decoding: line, as: UTF8.self))?.contains("deliver") == true
    }

    /// Splits UTF-8 crontab text (tests, and callers that only have text).
    public init(parsing text: String, owner: ConfigurationID) {
        self.init(parsing: Array(text.utf8), owner: owner)
    }

    /// This configuration's entries by id. An entry taken over from an untagged block is
    /// reported with a first line saying so, and so is every entry of a block whose assignments
    /// are not the ones it would be written with now (an earlier notif's block had none; the
    /// user's lines above changed): they never look current, so they are rewritten.
    public var installed: [String: String] {
        let stale = (environment != wantedEnvironment ? Self.staleEnvironmentNote : "") + (heldByHand ? Self.heldByHandNote : "")
        return Dictionary(entries.map { ($0.id, (untagged.contains($0.id) ? Self.untaggedNote : "") + stale
                                              + (shellByHand[$0.id].map { Self.shellByHandNote + TerminalText.safe($0) + "\n" } ?? "") + $0.text) },
                          uniquingKeysWith: { _, last in last })
    }

    /// How `installed` marks an entry of an untagged block.
    public static let untaggedNote = "(in the untagged block of an earlier notif)\n"
    /// How `installed` marks the entries of a block whose assignments are out of date.
    public static let staleEnvironmentNote = "(the block's SHELL and PATH lines are not the ones notif writes now)\n"
    /// How `installed` marks the entries of a block that holds lines of the user's.
    public static let heldByHandNote = "(lines of yours are inside notif's block)\n"
    /// How `installed` marks an entry that a SHELL line of the user's inside the block comes
    /// before; the line follows on the same line.
    public static let shellByHandNote = "(cron runs it with a line of yours inside notif's block) "

    /// The assignment lines the block is written with: its own, then the user's that give the
    /// lines below the block back what the lines above it set.
    public var wantedEnvironment: [[UInt8]] { CronEnvironment.lines + CronEnvironment.restoring(above: before) }

    public mutating func set(_ id: String, to text: String) {
        untagged.remove(id)
        if let index = entries.firstIndex(where: { $0.id == id }) {
            entries[index].text = text
        } else {
            entries.append((id, text))
        }
    }

    public mutating func remove(_ id: String) {
        untagged.remove(id)
        entries.removeAll { $0.id == id }
    }

    /// The whole crontab again, as bytes for `crontab -`. With no entries this configuration's
    /// block disappears and the rest is exactly what it was.
    public var bytes: [UInt8] {
        guard !entries.isEmpty else { return before + after }
        var result = before
        if let last = result.last, last != UInt8(ascii: "\n") { result.append(UInt8(ascii: "\n")) }
        var head = Self.beginMarker(owner) + "\n"
        if let about = Self.settingsComment(owner) { head += about + "\n" }
        result += Array(head.utf8)
        let newline = UInt8(ascii: "\n")
        for line in CronEnvironment.lines { result += line + [newline] }
        result += Array(entries.map(\.text).joined().utf8)
        for line in CronEnvironment.restoring(above: before) { result += line + [newline] }
        result += Array((Self.closingComment + "\n" + Self.endMarker(owner) + "\n").utf8)
        result += after
        return result
    }

    /// For each line of `bytes` (from 1), its number in the table this block was parsed from;
    /// nil for the block's own lines.
    public var lineOrigins: [Int?] {
        let above = CrontabLines.contents(of: before).count
        let own = entries.isEmpty ? 0 : CrontabLines.contents(of: bytes).count - keptLines.count
        return keptLines.prefix(above).map { $0 } + Array(repeating: nil, count: own) + keptLines.dropFirst(above).map { $0 }
    }

    /// One notif block of any configuration, as `withoutEveryBlock` found it.
    public struct Found: Equatable, Sendable {
        /// The configuration's tag; nil for the untagged block of an earlier notif.
        public var tag: String?
        /// What its `# settings: PATH` line names, when it has one.
        public var settingsPath: String?
        /// The reminder ids of its entries, in block order.
        public var ids: [String] = []
        /// The words of each job line's command (see `CommandWords.cron`).
        public var commands: [[String]] = []
    }

    /// The crontab without any of notif's blocks, whichever configuration wrote them (tagged or
    /// not), and the blocks it held; every other byte is kept as it was. A block runs from its
    /// begin marker to an end marker, or to the next begin marker (a block left open), or to
    /// the end, as `init(parsing:owner:)` reads it.
    public static func withoutEveryBlock(_ bytes: [UInt8]) -> (kept: [UInt8], blocks: [Found], keptLines: [Int]) {
        var kept: [UInt8] = [], blocks: [Found] = [], keptLines: [Int] = []
        CrontabLineRoles.scan(bytes, reads: { _ in true }) { line in
            switch line.role {
            case .begin(let tag): blocks.append(Found(tag: tag))
            case .settings(let path): blocks[blocks.count - 1].settingsPath = path
            case .entry(let id, _): blocks[blocks.count - 1].ids.append(id)
            case .job(let text): if let words = CommandWords.cron(line: text) { blocks[blocks.count - 1].commands.append(words) }
            case .end, .assignment, .giveBack, .closing: break
            case .users:
                kept += line.line
                keptLines.append(line.number)
            }
        }
        return (kept, blocks, keptLines)
    }

    static let settingsPrefix = "# settings: "

    /// `# settings: PATH`, naming the configuration for people reading the crontab (left out
    /// for a path a comment line cannot hold).
    static func settingsComment(_ owner: ConfigurationID) -> String? {
        owner.settingsPath.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7f } ? nil : settingsPrefix + owner.settingsPath
    }
}
