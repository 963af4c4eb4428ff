import AccountClient
import CommandLineInterface
import Glibc
import LinuxGateway
import SharedLogic
import Storage

/// `notif daemon`: runs the built-in scheduler in the foreground until SIGTERM/SIGINT, or
/// installs/removes the autostart entry that starts it at login.
extension Commands {
    func daemon(_ args: ParsedCommand) throws(UsageError) -> ExitCode {
        // --poll-interval (or NOTIF_POLL_INTERVAL) as given; the declaration leaves its check here.
        let given = args.value("--poll-interval")
        if args.flag("--install-autostart") {
            // Written into the entry, so checked now whatever the project: the daemon it starts reads it.
            let fromOption = given.flatMap { $0.source.hasPrefix("--") ? $0 : nil }
            if let fromOption, case .value(let seconds) = WholeNumber.parse(fromOption.text, minimum: Self.shortestPollInterval, maximum: Self.longestPollInterval) {
                return installAutostart(pollInterval: seconds)
            }
            if let fromOption { throw Self.pollIntervalError(fromOption) }
            return installAutostart(pollInterval: nil)
        }
        if args.flag("--remove-autostart") { return removeAutostart() }
        return runDaemon(pollInterval: try pollInterval(given))
    }

    /// The range `--poll-interval` accepts, from the declaration.
    static var shortestPollInterval: Int64 { pollIntervalRange.minimum }
    static var longestPollInterval: Int64 { pollIntervalRange.maximum }
    private static var pollIntervalRange: (minimum: Int64, maximum: Int64) {
        if case .wholeNumber(let minimum, let maximum, _)? = NotifCommandLine.declaration.command("daemon")?.option("--poll-interval")?.value?.kind {
            return (minimum, maximum)
        }
        return (10, 7 * 24 * 3600)
    }

    /// What is wrong with a poll interval, naming where it came from.
    static func pollIntervalError(_ given: GivenValue) -> UsageError {
        if case .tooLarge = WholeNumber.parse(given.text, minimum: shortestPollInterval, maximum: longestPollInterval) {
            return UsageError(message: "\(given.source) '\(given.text)' is too large (at most \(longestPollInterval) seconds, a week)", command: "daemon")
        }
        return UsageError(message: "\(given.source) '\(given.text)' is not a number of seconds (\(shortestPollInterval) or more)", command: "daemon")
    }

    /// How often an Account project's server is asked (300 s unless given). The value is checked
    /// only in Account projects, where it applies: elsewhere a bad one is ignored, with a warning
    /// when it was given on the command line.
    private func pollInterval(_ given: GivenValue?) throws(UsageError) -> Int64 {
        guard let given else { return 300 }
        let parsed = WholeNumber.parse(given.text, minimum: Self.shortestPollInterval, maximum: Self.longestPollInterval)
        if case .value(let seconds) = parsed { return seconds }
        guard (try? context.store.load().preferences.mode) == .account else {
            if given.source.hasPrefix("--") {
                output.warn("\(given.source) '\(given.text)' is ignored: it applies to Account projects only, and this is a Guest project")
            }
            return 300
        }
        throw Self.pollIntervalError(given)
    }

    private func runDaemon(pollInterval: Int64) -> ExitCode {
        // Block the stop signals before anything else, so one sent right after start is not lost.
        let paths = context.paths
        let tz = context.lookup("TZ"), zoneInfo = context.lookup("TZDIR")
        guard let sleeper = EventSleeper(places: { DaemonWatches.places(paths: paths, tz: tz, zoneInfoDirectory: zoneInfo) }) else {
            output.error("cannot wait for the reminders' time: the kernel refused a timerfd or a signalfd (\(Posix.message(for: errno)))")
            return .failure
        }
        let lockPath = context.paths.stateFile(EmbeddedScheduler.daemonLockName)
        let lock: HeldLock
        do {
            try FileIO.makeDirectory(context.paths.stateDirectory)
            guard let held = try takeLock(lockPath) else {
                output.error("notif daemon is already running for this configuration (it holds \(lockPath)); this one exits and changes nothing")
                return .failure
            }
            lock = held
        } catch {
            output.error("notif daemon cannot start: \(error)")
            return .failure
        }
        defer { lock.release() }
        // Read with the lock held (by `status`): the zone entries written without TZ fire in.
        do {
            try context.state.write(StateFiles.daemonZoneFile, tz ?? "")
        } catch {
            output.error("notif daemon: cannot record its zone for `notif status`: \(error)")
        }
        // Watched for edits: the directory must be there (it is notif's own, 0700).
        try? FileIO.makeDirectory(context.paths.configDirectory)
        output.line("notif daemon: running (pid \(getpid())); SIGTERM or Ctrl-C stops it")
        if sleeper.blind {
            output.line("notif daemon: no inotify to be had (fs.inotify.max_user_instances used up?); looking at the files every minute instead")
        }
        if let recorded = service.recordedScheduler(), recorded != .embedded {
            output.line("notif daemon: notif's entries are with \(recorded.rawValue), not the built-in scheduler; `notif set scheduler embedded` moves them here")
        }
        let lookup = context.lookup
        let daemon = EmbeddedDaemon(context: context, zone: { SystemTimeZone.current(environment: lookup("TZ"), zoneInfoDirectory: lookup("TZDIR")) },
                                    sleeper: sleeper, log: { output.line("notif daemon: " + $0) })
        let poller = AccountPoller(account: account, interval: pollInterval, log: { output.line("notif daemon: " + $0) })
        daemon.onWake = { poller.wake(now: $0) }
        let isExecutable = context.isExecutable
        daemon.programGone = { Self.ownProgramGone(isExecutable: isExecutable) }
        daemon.run()
        output.line("notif daemon: stopped")
        return .success
    }

    /// Why the program this process runs is gone, or nil: /proc/self/exe marks a file that was
    /// removed or replaced (`apt-get remove`, an upgrade, `make uninstall`) " (deleted)", and its
    /// path may no longer hold an executable. Unknown (the link cannot be read) is not gone.
    static func ownProgramGone(isExecutable: (String) -> Bool) -> String? {
        guard let link = FileIO.symlinkTarget("/proc/self/exe") else { return nil }
        let path = FileIO.executablePath(fromLink: link)
        if link.hasSuffix(FileIO.deletedMark) { return "notif's own program \(path) was removed or replaced" }
        if !isExecutable(path) { return "notif's own program \(path) is no longer an executable file" }
        return nil
    }

    /// The lock, retried briefly: `notif status` probes it with a momentary shared lock.
    private func takeLock(_ path: String) throws(FileError) -> HeldLock? {
        for attempt in 0..<5 {
            // Announced: its release (an exit, a kill) is a finished write an open page looks at.
            if let held = try FileLock.tryAcquire(path, announcingRelease: true) { return held }
            if attempt < 4 { usleep(20_000) }
        }
        return nil
    }

    /// Writes the autostart entry; a poll interval given with it goes into the entry's command.
    private func installAutostart(pollInterval: Int64?) -> ExitCode {
        let path = Autostart.path(in: context.paths)
        let command: [String]
        do {
            command = try service.command(["daemon"] + (pollInterval.map { ["--poll-interval", String($0)] } ?? []))
        } catch {
            output.error("no autostart entry was written: \(error)")
            return .failure
        }
        if let unlisted = service.recordConfiguration() { output.warn(unlisted) }
        do {
            let wrote = try Autostart.install(command: command, paths: context.paths)
            output.line(wrote ? "Wrote \(path): notif daemon starts at each desktop login."
                              : "\(path) is already in place: notif daemon starts at each desktop login.")
            if command.contains(where: NotifProgram.isInBuildFolder) {
                output.warn("the autostart entry runs notif from a build folder; run `make install`, then `notif daemon --install-autostart` from the installed notif")
            }
            return .success
        } catch {
            output.error("no autostart entry was written: \(error)")
            return .failure
        }
    }

    private func removeAutostart() -> ExitCode {
        let path = Autostart.path(in: context.paths)
        do {
            output.line(try Autostart.remove(paths: context.paths) ? "Removed \(path)." : "There is no autostart entry at \(path).")
            return .success
        } catch {
            output.error("the autostart entry was kept: \(error)")
            return .failure
        }
    }
}
