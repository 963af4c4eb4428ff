/// The environment notif's crontab block gives its own lines. cron runs every job with the
/// variables the crontab's lines above it assigned (`SHELL=/bin/false` above the block and no
/// reminder ever runs; `PATH=/nonexistent` and notif finds no `notify-send`), so the block
/// assigns its own first, and after its entries gives the lines below it back what the user's
/// lines above had set. What the block assigns is cron's own default for a crontab without
/// assignments, so where the user set nothing there is nothing to give back.
enum CronEnvironment {
    /// The block's assignments: Debian's cron starts every crontab with these values.
    static let assignments: [(name: String, value: String)] = [("SHELL", "/bin/sh"), ("PATH", "/usr/bin:/bin")]

    /// The block's assignment lines, without their newlines.
    static var lines: [[UInt8]] { assignments.map { Array("\($0.name)=\($0.value)".utf8) } }

    /// The lines that follow the block's entries: for each variable the block assigns, the
    /// user's last line above the block that assigns it, exactly as written (a CR and every
    /// other byte kept, so cron reads the same value again). Lines inside notif's blocks
    /// (another configuration's) are not the user's: each block gives back what it changed.
    static func restoring(above bytes: [UInt8]) -> [[UInt8]] {
        let names = Set(assignments.map { Array($0.name.utf8) })
        var last: [[UInt8]: [UInt8]] = [:]
        var insideBlock = false
        for line in CrontabLines.contents(of: bytes) {
            if let marker = CrontabBlock.marker(line) {
                insideBlock = marker.begin
                continue
            }
            if insideBlock { continue }
            if let name = assignedName(line), names.contains(name) { last[name] = Array(line) }
        }
        return assignments.compactMap { last[Array($0.name.utf8)] }
    }

    /// The variable a crontab line assigns, as cron reads it (`NAME=value`, `NAME = value`,
    /// `"NAME"=value`, after any blanks), or nil for a comment, a blank line or a job. cron
    /// takes a line for an assignment before it tries it as a job, and a job line never starts
    /// with a letter or a quote, so the name part decides.
    static func assignedName(_ line: ArraySlice<UInt8>) -> [UInt8]? {
        var rest = line.drop { isBlank($0) }
        guard let first = rest.first, first != UInt8(ascii: "#") else { return nil }
        var name: [UInt8] = []
        if first == UInt8(ascii: "'") || first == UInt8(ascii: "\"") {
            rest = rest.dropFirst()
            guard let close = rest.firstIndex(of: first) else { return nil }
            name = Array(rest[..<close])
            if name.contains(UInt8(ascii: "=")) { return nil }
            rest = rest[(close + 1)...]
        } else {
            let end = rest.firstIndex { isBlank($0) || $0 == UInt8(ascii: "=") } ?? rest.endIndex
            name = Array(rest[..<end])
            rest = rest[end...]
        }
        rest = rest.drop { isBlank($0) }
        guard !name.isEmpty, rest.first == UInt8(ascii: "=") else { return nil }
        return name
    }

    /// Whether `line` assigns one of the variables the block assigns (`SHELL`, `PATH`).
    static func assignsBlocksVariable(_ line: ArraySlice<UInt8>) -> Bool {
        guard let name = assignedName(line) else { return false }
        return assignments.contains { Array($0.name.utf8) == name }
    }

    /// Whether `line` assigns `SHELL`, the shell cron runs the jobs after it with.
    static func assignsShell(_ line: ArraySlice<UInt8>) -> Bool { assignedName(line) == Array("SHELL".utf8) }

    /// C's isspace, as cron's parser uses it.
    static func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || (0x09...0x0D).contains(byte) }
}
