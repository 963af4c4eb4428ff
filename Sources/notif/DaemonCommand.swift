import AccountClient
import Glibc
import LinuxGateway
import SharedLogic
import Storage

/// `notif daemon`: runs the built-in scheduler in the foreground until SIGTERM/SIGINT, or
/// installs/removes the autostart entry that starts it at login.
extension Commands {
    func daemon(_ args: [String]) throws(UsageError) -> ExitCode {
        var args = args
        var given: (text: String, source: String)?
        if let env = context.lookup("NOTIF_POLL_INTERVAL"), !env.isEmpty { given = (env, "NOTIF_POLL_INTERVAL") }
        if let index = args.firstIndex(where: { $0 == "--poll-interval" || $0.hasPrefix("--poll-interval=") }) {
            if args[index] == "--poll-interval" {
                guard index + 1 < args.count else { throw UsageError(message: "--poll-interval needs a number of seconds", command: "daemon") }
                given = (args[index + 1], "--poll-interval")
                args.removeSubrange(index...(index + 1))
            } else {
                given = (String(args[index].dropFirst("--poll-interval=".count)), "--poll-interval")
                args.remove(at: index)
            }
        }
        switch args {
        case []: return runDaemon(pollInterval: try pollInterval(given))
        case ["--install-autostart"]: return installAutostart()
        case ["--remove-autostart"]: return removeAutostart()
        default:
            throw UsageError(message: "unexpected argument '\(args.first { $0 != "--install-autostart" && $0 != "--remove-autostart" } ?? args[1])' for daemon", command: "daemon")
        }
    }

    /// A week: longer waits between polls are refused (and could not be added to a time).
    static let longestPollInterval: Int64 = 7 * 24 * 3600

    /// How often an Account project's server is asked (300 s unless given). The value is checked
    /// only in Account projects, where it applies: elsewhere a bad one is ignored, with a warning
    /// when it was given on the command line.
    private func pollInterval(_ given: (text: String, source: String)?) throws(UsageError) -> Int64 {
        guard let given else { return 300 }
        let parsed = WholeNumber.parse(given.text, minimum: 10, maximum: Self.longestPollInterval)
        if case .value(let seconds) = parsed { return seconds }
        guard (try? context.store.load().preferences.mode) == .account else {
            if given.source.hasPrefix("--") {
                output.warn("\(given.source) '\(given.text)' is ignored: it applies to Account projects only, and this is a Guest project")
            }
            return 300
        }
        switch parsed {
        case .tooLarge:
            throw UsageError(message: "\(given.source) '\(given.text)' is too large (at most \(Self.longestPollInterval) seconds, a week)", command: "daemon")
        default:
            throw UsageError(message: "\(given.source) '\(given.text)' is not a number of seconds (10 or more)", command: "daemon")
        }
    }

    private func runDaemon(pollInterval: Int64) -> ExitCode {
        // Block the stop signals before anything else, so one sent right after start is not lost.
        let paths = context.paths
        let tz = context.lookup("TZ"), zoneInfo = context.lookup("TZDIR")
        let sleeper: any DaemonSleeper = EventSleeper(places: { DaemonWatches.places(paths: paths, tz: tz, zoneInfoDirectory: zoneInfo) })
            ?? SignalSleeper(clock: context.clock)
        let lockPath = context.paths.stateFile(EmbeddedScheduler.daemonLockName)
        let lock: HeldLock
        do {
            try FileIO.makeDirectory(context.paths.stateDirectory)
            guard let held = try takeLock(lockPath) else {
                output.error("notif daemon is already running for this user (it holds \(lockPath)); this one exits and changes nothing")
                return .failure
            }
            lock = held
        } catch {
            output.error("notif daemon cannot start: \(error)")
            return .failure
        }
        defer { lock.release() }
        // Watched for edits: the directory must be there (it is notif's own, 0700).
        try? FileIO.makeDirectory(context.paths.configDirectory)
        output.line("notif daemon: running (pid \(getpid())); SIGTERM or Ctrl-C stops it")
        if sleeper is SignalSleeper {
            output.line("notif daemon: this kernel offers no timerfd or inotify to notif; looking at the clock and files every minute instead")
        }
        if let recorded = service.recordedScheduler(), recorded != .embedded {
            output.line("notif daemon: notif's entries are with \(recorded.rawValue), not the built-in scheduler; `notif set scheduler embedded` moves them here")
        }
        let lookup = context.lookup
        let daemon = EmbeddedDaemon(context: context, zone: { SystemTimeZone.current(environment: lookup("TZ"), zoneInfoDirectory: lookup("TZDIR")) },
                                    sleeper: sleeper, log: { output.line("notif daemon: " + $0) })
        let poller = AccountPoller(account: account, interval: pollInterval, log: { output.line("notif daemon: " + $0) })
        daemon.onWake = { poller.wake(now: $0) }
        daemon.run()
        output.line("notif daemon: stopped")
        return .success
    }

    /// The lock, retried briefly: `notif status` probes it with a momentary shared lock.
    private func takeLock(_ path: String) throws(FileError) -> HeldLock? {
        for attempt in 0..<5 {
            if let held = try FileLock.tryAcquire(path) { return held }
            if attempt < 4 { usleep(20_000) }
        }
        return nil
    }

    private func installAutostart() -> ExitCode {
        let path = Autostart.path(in: context.paths)
        let command: [String]
        do {
            command = try service.command(["daemon"])
        } catch {
            output.error("no autostart entry was written: \(error)")
            return .failure
        }
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
