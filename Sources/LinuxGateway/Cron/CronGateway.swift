import SharedLogic
import Storage

/// Schedules reminders in the user's crontab, inside one managed block. Every change is a
/// locked read-modify-write through `crontab -l` / `crontab -`; the user's own lines stay as they were.
public struct CronGateway: LocalNotificationGateway {
    public let name = "cron"
    let runner: any ProcessRunner
    /// A lock file that serialises notif's own crontab edits.
    let lockPath: String
    /// Seconds any one crontab call may take.
    let timeout: Double

    public init(runner: any ProcessRunner, lockPath: String, timeout: Double = 20) {
        self.runner = runner
        self.lockPath = lockPath
        self.timeout = timeout
    }

    public func installed() throws(GatewayError) -> [String: String] {
        try CrontabBlock(parsing: readCrontab()).installed
    }

    /// The entry's lines: the daily run, and an `@reboot` run of the catch-up command so a
    /// reminder missed while the machine was off is shown once when cron starts, the same day only.
    public func render(_ entry: ScheduledEntry) throws(GatewayError) -> String {
        CrontabBlock.entryPrefix + entry.reminder.id + "\n"
            + CronCommand.schedule(entry.reminder.time) + " " + (try CronCommand.render(entry.command)) + "\n"
            + CronCommand.atBoot + " " + (try CronCommand.render(entry.catchUpCommand)) + "\n"
    }

    public func install(_ entry: ScheduledEntry) throws(GatewayError) {
        let text = try render(entry)
        try edit { $0.set(entry.reminder.id, to: text) }
    }

    public func cancel(_ id: String) throws(GatewayError) {
        try edit { $0.remove(id) }
    }

    /// The current crontab as the bytes `crontab -l` printed (never decoded: the user's lines
    /// need not be UTF-8); "no crontab" is empty.
    func readCrontab() throws(GatewayError) -> [UInt8] {
        let result = try call(["crontab", "-l"])
        if result.succeeded { return result.stdout }
        if result.exitStatus == 1 && result.stderrText.hasPrefix("no crontab for") { return [] }
        throw GatewayError("`crontab -l` failed (\(result.failureSummary))")
    }

    private func edit(_ change: (inout CrontabBlock) -> Void) throws(GatewayError) {
        let lock: HeldLock
        do {
            try FileIO.makeDirectory(Posix.directory(of: lockPath))
            lock = try FileLock.acquire(lockPath)
        } catch {
            throw GatewayError(error.description)
        }
        defer { lock.release() }
        let old = try readCrontab()
        var block = CrontabBlock(parsing: old)
        change(&block)
        let new = block.bytes
        if new == old { return }
        if new.isEmpty {
            let result = try call(["crontab", "-r"])
            if !result.succeeded && !result.stderrText.hasPrefix("no crontab for") {
                throw GatewayError("`crontab -r` failed (\(result.failureSummary)); your crontab was not changed")
            }
        } else {
            // The whole table goes to a file first, and that file is crontab's stdin: if notif is
            // killed half way, crontab still reads it all (through a pipe it would see a partial
            // crontab and install it). Not `crontab FILE`: crontab cuts long or odd file names.
            let file = Posix.join(Posix.directory(of: lockPath), "crontab.new")
            do {
                try AtomicFile.write(new, to: file)
            } catch {
                throw GatewayError("\(error); your crontab was not changed")
            }
            defer { try? FileIO.remove(file) }
            let result = try call(["crontab", "-"], stdinFile: file)
            if !result.succeeded {
                throw GatewayError("`crontab -` failed (\(result.failureSummary)); your crontab was not changed")
            }
        }
    }

    private func call(_ argv: [String], input: [UInt8]? = nil, stdinFile: String? = nil) throws(GatewayError) -> ProcessResult {
        do {
            if let stdinFile { return try runner.run(argv, stdinFile: stdinFile, environment: [:], timeout: timeout) }
            return try runner.run(argv, input: input, environment: [:], timeout: timeout)
        } catch {
            // Not "holds nothing": without the crontab program notif can neither read nor change
            // the table, and the cron daemon still runs what is in it.
            throw error.notFound
                ? GatewayError("crontab is not installed or not on PATH (Debian: apt install cron)")
                : GatewayError(error.description)
        }
    }
}
