import SharedLogic
import Storage

/// Schedules reminders in the user's crontab, inside one managed block per configuration. Every
/// change is a locked read-modify-write of the table's exact bytes (`readExactly`, `crontab -`);
/// the user's own lines and other configurations' blocks stay as they were, byte for byte.
/// Reading the entries (status, apply's check) takes one `crontab -l`: notif's own lines are
/// the same there.
///
/// cron runs jobs in the system zone (Debian's cron ignores `CRON_TZ`). An entry for a user
/// whose zone differs (`TZ`) gets one line per system-zone time at which the reminder's time in
/// the user's zone happens over the coming years (`SchedulerTimes`), and `TZ` goes with its
/// command: `notif deliver` shows the reminder only on the run that is the user's 09:00.
/// When that time comes while the system clock repeats an hour (falling back), cron runs no
/// fixed-time line, so the entry also has an hourly line on those days (`SchedulerTimes.repeatedHourRuns`).
public struct CronGateway: LocalNotificationGateway {
    /// The one wording for a `crontab` notif cannot start (the probe, apply, status, reset): it
    /// may be installed but not on this PATH.
    public static let crontabMissing = "crontab is not installed or not on PATH (Debian: apt install cron)"

    public let name = "cron"
    let runner: any ProcessRunner
    /// A lock file that serialises notif's own crontab edits.
    let lockPath: String
    /// Seconds any one crontab call may take.
    let timeout: Double
    /// Whose block this gateway reads and writes.
    let owner: ConfigurationID
    /// The zone the cron daemon runs jobs in: the system zone (/etc/localtime).
    let systemZone: @Sendable () -> ZoneRules
    let clock: any WallClock

    public init(runner: any ProcessRunner, lockPath: String, owner: ConfigurationID,
                systemZone: @escaping @Sendable () -> ZoneRules = { .utc }, clock: any WallClock = SystemClock(), timeout: Double = 20) {
        self.runner = runner
        self.lockPath = lockPath
        self.owner = owner
        self.systemZone = systemZone
        self.clock = clock
        self.timeout = timeout
    }

    public func installed() throws(GatewayError) -> [String: String] {
        try CrontabBlock(parsing: readCrontab(), owner: owner).installed
    }

    /// The system-zone (days and) times at which `entry` runs: its own, or for a user in another
    /// zone each one that is its day and time there.
    public func slots(_ entry: ScheduledEntry) -> [SchedulerTimes.Slot] {
        guard entry.zoneVariable != nil else {
            let weekday: Weekday? = if case .weekly(let day) = entry.reminder.recurrence { day } else { nil }
            return [SchedulerTimes.Slot(time: entry.reminder.time, weekday: weekday)]
        }
        return SchedulerTimes.slots(of: entry.reminder, in: entry.zone, seenFrom: systemZone(), from: clock.now())
    }

    /// The runs `entry` needs on the days the system clock falls back, when its time in the
    /// user's zone comes while the clock repeats an hour.
    public func repeatedHourRuns(_ entry: ScheduledEntry) -> [RepeatedHourRun] {
        let system = systemZone()
        // Without TZ the user's zone is the system zone (what `notif deliver` then reads).
        return SchedulerTimes.repeatedHourRuns(of: entry.reminder.time, in: entry.zoneVariable == nil ? system : entry.zone,
                                               seenFrom: system, from: clock.now())
    }

    /// The entry's lines: a daily run per system-zone time, an hourly one on the days the system
    /// clock repeats the hour of the reminder's time (if any), and an `@reboot` run of the catch-up
    /// command so a reminder missed while the machine was off is shown once when cron starts, the
    /// same day only. Each runs notif only while its program is there.
    public func render(_ entry: ScheduledEntry) throws(GatewayError) -> String {
        var text = CrontabBlock.entryPrefix + entry.reminder.id + "\n"
        let daily = try CronCommand.guarded(CronCommand.pinned(entry.command, home: entry.home), program: entry.program)
        for slot in slots(entry) { text += CronCommand.schedule(slot) + " " + daily + "\n" }
        for run in repeatedHourRuns(entry) { text += CronCommand.schedule(run) + " " + daily + "\n" }
        return text + CronCommand.atBoot + " " + (try CronCommand.guarded(CronCommand.pinned(entry.catchUpCommand, home: entry.home), program: entry.program)) + "\n"
    }

    public func entry(_ id: String, installed text: String, userZone: ZoneRules) -> InstalledEntry {
        // notif's own lines run `[ -x PROGRAM ] && …`; a line someone added inside the block is not one.
        let lines = text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map(String.init)
        let program = (lines.filter { $0.contains("[ -x ") } + lines).lazy.compactMap(CronCommand.program(inLine:)).first
        // The TZ the daily lines give `notif deliver` (the @reboot catch-up carries the same).
        let zone = text.split(separator: "\n").lazy.filter { !$0.hasPrefix("@") }
            .compactMap { CommandWords.cron(line: String($0)) }.first.flatMap { CommandWords.assignments($0)["TZ"] }
        var entry = InstalledEntry(id: id, current: false, program: program, firing: firing(text, userZone: userZone), zoneVariable: zone)
        entry.runByHand = text.split(separator: "\n").first { $0.hasPrefix(CrontabBlock.shellByHandNote) }
            .map { String($0.dropFirst(CrontabBlock.shellByHandNote.count)) }
        return entry
    }

    /// The installed lines' system-zone times, compared with the reminder's time in `userZone`.
    func firing(_ installed: String, userZone: ZoneRules) -> EntryFiring? {
        let lines = installed.split(separator: "\n")
        let times = lines.compactMap { line -> DailyTime? in
            let fields = line.split(separator: " ", maxSplits: 2)
            guard fields.count == 3, let minute = Int(fields[0]), let hour = Int(fields[1]),
                  (0..<24).contains(hour), (0..<60).contains(minute) else { return nil }
            return DailyTime(hour: hour, minute: minute)
        }.sorted { ($0.hour, $0.minute) < ($1.hour, $1.minute) }
        // No timed line (a daily line deleted by hand): it runs only at boot, never at the reminder's time.
        let system = systemZone()
        let id = lines.first { $0.hasPrefix(CrontabBlock.entryPrefix) }.map { String($0.dropFirst(CrontabBlock.entryPrefix.count)) }
        let hourly = lines.contains { $0.split(separator: " ", maxSplits: 2).dropFirst().first == "*" }
        guard let reminder = id.flatMap(LocalReminders.reminder(id:)) else {
            return EntryFiring(.cron(times: times, systemZone: system.name, matchesWanted: false, hourlyOnFallBack: hourly))
        }
        let wanted = userZone == system ? [reminder.time]
            : SchedulerTimes.times(of: reminder.time, in: userZone, seenFrom: system, from: clock.now())
        return EntryFiring(.cron(times: times, systemZone: system.name, matchesWanted: times == wanted, hourlyOnFallBack: hourly),
                           wanted: WantedTime(time: reminder.time, zone: userZone.name),
                           earlierNotif: installed.hasPrefix(CrontabBlock.untaggedNote))
    }

    public func install(_ entry: ScheduledEntry) throws(GatewayError) {
        let text = try render(entry)
        try edit { $0.set(entry.reminder.id, to: text) }
    }

    public func cancel(_ id: String) throws(GatewayError) {
        try edit { $0.remove(id) }
    }

    /// The current crontab as the bytes `crontab -l` printed (never decoded: the user's lines
    /// need not be UTF-8); "no crontab" is empty. Not exact: Debian's `crontab -l` prints a CR
    /// byte as the two characters `\r`, as it prints a backslash and an r. notif's own lines hold
    /// neither, so they read back as written; a table to write back comes from `readExactly`.
    func readCrontab() throws(GatewayError) -> [UInt8] {
        let result = try call(["crontab", "-l"])
        if result.succeeded { return result.stdout }
        if result.exitStatus == 1 && result.stderrText.hasPrefix("no crontab for") { return [] }
        throw GatewayError("`crontab -l` failed (\(result.failureSummary))")
    }

    /// The current crontab exactly as cron holds it (its bytes after the header `crontab` adds),
    /// "no crontab" empty. `crontab -e` copies the table to a file of the user's and runs the
    /// editor on it: with `/bin/cat` for the editor, the bytes come out on stdout as they are, and
    /// as the file is left unchanged crontab installs nothing ("No modification made", exit 0).
    /// With no crontab yet it gives the editor a template instead, and says so on stderr.
    func readExactly() throws(GatewayError) -> [UInt8] {
        let result = try call(["crontab", "-e"], environment: ["VISUAL": "/bin/cat", "EDITOR": "/bin/cat"])
        // A crontab that refuses to edit a table that is not there says so as `crontab -l` does.
        if result.exitStatus == 1 && result.stderrText.hasPrefix("no crontab for") { return [] }
        guard result.succeeded else { throw GatewayError("`crontab -e` failed (\(result.failureSummary)); your crontab was not changed") }
        return result.stderrText.hasPrefix("no crontab for") ? [] : result.stdout
    }

    /// Removes every notif block from the crontab, whichever configuration (or earlier notif)
    /// wrote it, and returns what they held; the user's lines stay byte for byte.
    public func removeEveryBlock() throws(GatewayError) -> [CrontabBlock.Found] {
        var found: [CrontabBlock.Found] = []
        try rewrite { old in
            let split = CrontabBlock.withoutEveryBlock(old)
            found = split.blocks
            return (split.kept, split.keptLines)
        }
        return found
    }

    private func edit(_ change: (inout CrontabBlock) -> Void) throws(GatewayError) {
        let owner = self.owner
        try rewrite { old in
            var block = CrontabBlock(parsing: old, owner: owner)
            change(&block)
            return (block.bytes, block.lineOrigins)
        }
    }

    /// A locked read-modify-write of the whole crontab; nothing is written when `change` keeps it
    /// as it is. `change` gives the new table and, for each of its lines, where it was in the old
    /// one (nil: notif's own), so a line cron refuses is named as the user sees it.
    private func rewrite(_ change: ([UInt8]) -> (bytes: [UInt8], origins: [Int?])) throws(GatewayError) {
        let lock = try GatewayError.files { () throws(FileError) -> HeldLock in
            try FileIO.makeDirectory(Posix.directory(of: lockPath))
            return try FileLock.acquire(lockPath)
        }
        defer { lock.release() }
        let old = try readExactly()
        let (new, origins) = change(old)
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
                throw Self.refused(result, table: new, origins: origins)
            }
        }
    }

    /// Why `crontab -` did not install `table`: the line cron refuses, by its number in the
    /// user's crontab (`crontab -e` shows the same lines) and its text, when crontab named one.
    static func refused(_ result: ProcessResult, table: [UInt8], origins: [Int?]) -> GatewayError {
        let unchanged = "your crontab was not changed"
        guard let refusal = CrontabRefusal(stderr: String(decoding: result.stderr, as: UTF8.self), table: table) else {
            return GatewayError("`crontab -` failed (\(result.failureSummary)); \(unchanged)")
        }
        let lines = CrontabLines.contents(of: table)
        let text = refusal.line <= lines.count ? String(decoding: lines[refusal.line - 1], as: UTF8.self) : ""
        guard refusal.line <= origins.count, let number = origins[refusal.line - 1] else {
            return GatewayError("cron refuses a line notif wrote (\(refusal.reason)): \(text.debugDescription); \(unchanged)")
        }
        return GatewayError("cron refuses line \(number) of your crontab (\(refusal.reason)): \(text.debugDescription); "
            + "\(unchanged): fix or remove that line (`crontab -e`), then run `notif apply`")
    }

    private func call(_ argv: [String], stdinFile: String? = nil, environment: [String: String?] = [:]) throws(GatewayError) -> ProcessResult {
        do {
            if let stdinFile { return try runner.run(argv, stdinFile: stdinFile, environment: environment, timeout: timeout) }
            return try runner.run(argv, input: nil, environment: environment, timeout: timeout)
        } catch {
            // Not "holds nothing": without the crontab program notif can neither read nor change
            // the table, and the cron daemon still runs what is in it.
            throw error.notFound
                ? GatewayError(Self.crontabMissing)
                : GatewayError(error.description)
        }
    }
}
