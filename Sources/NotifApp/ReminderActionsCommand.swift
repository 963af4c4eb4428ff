import CommandLineInterface
import Glibc
import LinuxGateway
import SharedLogic
import Storage

/// `notif __reminder-actions ID --day DAY --show-within MS [--wait-at-most SECONDS]`: the
/// reminder's waiter, which `notif deliver` starts detached once the reminder of local DAY is due
/// (not listed in the help). At most one waits per reminder: it takes the reminder's wait lock,
/// or says `busy`. Over its own D-Bus connection it shows the reminder (with "Turn off" and
/// "Settings" where the service has actions) and writes one status line to stdout for
/// `deliver` (`shown WORDS`, `waiting WHY`, `busy`, `failed WHY`), then closes it. When no
/// notification service could be reached, it waits for one until DAY ends
/// (`ReminderService.waitForService`), then shows it and records it `delivered`, late, or
/// records the day `missed`. A notification with buttons is then waited on until it closes or
/// `--wait-at-most` passes (8 hours unless told; then it takes the notification away, as it does
/// after a button), or until
/// the service that showed it leaves the bus (its name goes to no one or to another service) or
/// the bus connection ends: then no button can come, and it records why in deliveries.jsonl.
/// "Turn off" runs what `notif set tips-and-updates off` runs; "Settings" opens the page in a
/// terminal. When either fails, a notification says so.
extension Commands {
    static let longestActionWait: Double = 8 * 3600

    func reminderActions(_ args: ParsedCommand, reminder: LocalReminder) -> ExitCode {
        // Nothing of this process may hold the launcher's stderr (a scheduler's pipe, say).
        Self.silence(2)
        let showWithin = (args.decimal("--show-within") ?? 5000) / 1000, waitAtMost = args.decimal("--wait-at-most") ?? Self.longestActionWait
        let began = context.clock.now()
        let day = args.value("--day").flatMap { CivilDate($0.text) } ?? context.zone.localDateTime(of: began).date
        let waitLock: HeldLock
        do {
            // Its end, however it comes (a kill too), wakes `notif daemon`, which sends a new waiter.
            guard let held = try FileLock.tryAcquire(context.paths.stateFile(StateFiles.waitLock(reminder.id)), announcingRelease: true) else {
                _ = Self.status(HandoffAnswer.busy.line)
                return .success
            }
            waitLock = held
        } catch {
            _ = Self.status(HandoffAnswer.failed("cannot take the wait lock: \(error)").line)
            return .failure
        }
        let sessions = LiveDesktop.sessions(context)
        let icon = AppIcon.icon(executable: context.executable, lookup: context.lookup)
        let notifier = DesktopNotifier(icon: icon,
                                       timeout: min(5, max(0.5, showWithin / Double(max(1, sessions.count)))), lookup: context.lookup)
        // Its buttons must outlive a glance: 0 is "never expires" (Desktop Notifications spec),
        // and this waiter takes it away itself at the end of its bounded life.
        let shown: DesktopNotifier.Shown
        let first = service.firstTry(reminder, notifier: notifier, sessions: sessions)
        switch first.result {
        case .success(let now):
            // `deliver` records it; if it is gone (it gave up on this line), this waiter does.
            if !Self.status(HandoffAnswer.shown(now.words).line) {
                _ = underDeliverLock { service.recordShown(reminder, day: day, now: began, waitingSince: nil, words: now.words) }
            }
            waitLock.release()
            shown = now
        case .failure(let error):
            if !Self.status(HandoffAnswer.waiting(error.message).line) {
                _ = underDeliverLock { service.log(reminder.id, kind: .scheduled, now: began, .waiting, DeliveryLateness.waiting(error.message), day: day) }
            }
            let lookup = context.lookup
            let end = service.waitForService(reminder, day: day, since: began, problem: error.message, watch: first.watch, zone: {
                SystemTimeZone.current(environment: lookup("TZ"), zoneInfoDirectory: lookup("TZDIR"))
            })
            waitLock.release()
            guard case .shown(let late) = end else { return .success }
            shown = late
        }
        guard shown.buttons else { return .success }
        awaitButton(reminder, on: shown, until: SystemClock.monotonicNow() + waitAtMost)
        return .success
    }

    /// The button pressed on the reminder's notification, or why none can come, and what it does.
    private func awaitButton(_ reminder: LocalReminder, on shown: DesktopNotifier.Shown, until limit: Double) {
        let answer = shown.bus.answer(for: shown.id, until: limit)
        if case .action = answer {
            // dunst, mako and lxqt-notificationd keep the bubble after a button: its buttons would do nothing now.
            shown.bus.close(shown.id, deadline: SystemClock.monotonicNow() + 2)
        }
        switch answer {
        case .action(ReminderAction.turnOff.rawValue): turnOff(reminder)
        case .action(ReminderAction.settings.rawValue): openSettings(reminder)
        case .timedOut: shown.bus.close(shown.id, deadline: SystemClock.monotonicNow() + 5)   // unanswered for too long: take it away
        case .serviceLeft(let why):
            // Not closed: a new owner of the name does not know this notification's id.
            record(reminder, .skipped, "the waiter for the buttons ended: \(why) before a button was pressed")
        case .busEnded(let why):
            record(reminder, .skipped, "the waiter for the buttons ended: its session bus connection ended (\(why)) before a button was pressed")
        case .action, .closed: break
        }
    }

    /// `body` under the deliver lock (a record this waiter makes in `deliver`'s place).
    private func underDeliverLock<T>(_ body: () -> T) -> T {
        let lock = try? context.state.lock(ReminderService.deliverLock)
        defer { lock?.release() }
        return body()
    }

    /// The same path as `notif set SETTING off`; a failure is shown as a notification.
    private func turnOff(_ reminder: LocalReminder) {
        let said = Captured()
        let code = Commands(context: context, output: Output(out: said.add, err: said.add)).set(.toggle(reminder.preference), "off")
        // What `set` said, without a line the next one repeats ("Tips & Updates: off", then
        // "Tips & Updates: off, nothing scheduled").
        let lines = said.text.split(separator: "\n").map(String.init)
        let what = lines.filter { line in !lines.contains { $0 != line && $0.hasPrefix(line) } }.joined(separator: "; ")
        guard code != .success else {
            record(reminder, .turnedOff, "Turn off pressed on the notification" + (what.isEmpty ? "" : ": " + what))
            return
        }
        record(reminder, .failed, "Turn off pressed on the notification, but it could not be turned off: " + what)
        _ = service.show(summary: "\(reminder.title) could not be turned off", body: said.text + "\nRun notif in a terminal to see why.")
    }

    /// notif's page in a terminal: `x-terminal-emulator -e notif`, else the desktop entry through
    /// `gio launch`. Its bus and display come from this process's environment, else from the
    /// recorded session, and each only when it passes the rule for session variables
    /// (`SessionEnvironment.problem`: this user serves it); a refused one is unset for the terminal.
    private func openSettings(_ reminder: LocalReminder) {
        var environment: [String: String?] = [:]
        var refused: [String] = []
        let lookup = context.lookup
        for name in SessionEnvironment.names {
            guard let value = lookup(name), !value.isEmpty, let problem = SessionEnvironment.problem(name, value, lookup: lookup) else { continue }
            environment[name] = .some(nil)
            refused.append("this session's \(name)=\(value) is not used: \(problem)")
        }
        func has(_ name: String) -> Bool { (environment[name] ?? context.lookup(name)).map { !$0.isEmpty } ?? false }
        if !has("DISPLAY") && !has("WAYLAND_DISPLAY"), let text = try? context.state.read(StateFiles.sessionFile) {
            for (name, value) in SessionEnvironment(parsing: text).values.sorted(by: { $0.key < $1.key }) where name != "DBUS_SESSION_BUS_ADDRESS" {
                if let problem = SessionEnvironment.problem(name, value, lookup: lookup) {
                    refused.append("the recorded \(name)=\(value) is not used: \(problem)")
                } else {
                    environment[name] = value
                }
            }
        }
        // With no display, a terminal cannot open, and `gio launch` exits 0 having opened nothing.
        guard has("DISPLAY") || has("WAYLAND_DISPLAY") else {
            let why = refused.isEmpty
                ? "there is no graphical session (neither DISPLAY nor WAYLAND_DISPLAY is set, here or in the recorded session)"
                : "there is no graphical session of yours (" + refused.joined(separator: "; ") + ")"
            record(reminder, .failed, "Settings pressed on the notification, but notif's settings could not be opened: " + why)
            _ = service.show(summary: "notif's settings could not be opened", body: why + ".\nRun notif in a terminal.")
            return
        }
        var tried: [String] = []
        let program = context.executable ?? "notif"
        var candidates: [[String]] = []
        // By absolute path, on PATH or in the standard directories: a scheduler's PATH may hold neither.
        if let terminal = SystemProgram.path("x-terminal-emulator", searching: context.lookup("PATH")) {
            candidates.append([terminal, "-e", program])
        } else {
            tried.append(SystemProgram.missing("x-terminal-emulator"))
        }
        let entry = AppIcon.desktopEntryFile(executable: context.executable, lookup: context.lookup)
        if let path = entry.path {
            if let gio = SystemProgram.path("gio", searching: context.lookup("PATH")) { candidates.append([gio, "launch", path]) } else { tried.append(SystemProgram.missing("gio")) }
        } else if !entry.skipped.isEmpty {
            // Installed, but where another user could change it: a command the button would run as you.
            tried.append("no notif.desktop notif may use for `gio launch`: " + entry.skipped.joined(separator: "; "))
        } else {
            tried.append("no notif.desktop is installed for `gio launch`")
        }
        for argv in candidates {
            switch DetachedProgram.start(argv, environment: environment) {
            case .success: return
            case .failure(let error): tried.append(error.message)
            }
        }
        record(reminder, .failed, "Settings pressed on the notification, but notif's settings could not be opened: " + tried.joined(separator: "; "))
        _ = service.show(summary: "notif's settings could not be opened", body: tried.joined(separator: "; ") + "\nRun notif in a terminal.")
    }

    /// What a button did, in deliveries.jsonl (`notif history` shows it).
    private func record(_ reminder: LocalReminder, _ outcome: DeliveryOutcome, _ detail: String) {
        _ = service.log(reminder.id, kind: .button, now: context.clock.now(), outcome, detail)
    }

    /// One line for `deliver`, then stdout is closed (the waiter goes on without anyone reading).
    /// Whether it could be written (not when `deliver` gave up waiting for it).
    static func status(_ line: String) -> Bool {
        let written = Posix.writeAll(1, Array((line.replacing("\n", with: " ") + "\n").utf8))
        silence(1)
        return written
    }

    static func silence(_ fd: Int32) {
        let null = open("/dev/null", O_RDWR | O_CLOEXEC)
        if null >= 0 {
            dup2(null, fd)
            close(null)
        }
    }
}

/// Text a command printed, kept instead of shown.
final class Captured {
    private(set) var text = ""
    func add(_ part: String) { text += part }
}
