import CommandLineInterface
import Glibc
import LinuxGateway
import SharedLogic
import Storage

/// `notif __reminder-actions ID --show-within MS [--wait-at-most SECONDS]`: the detached
/// waiter `notif deliver` hands a reminder with buttons to (not listed in the help). Over its own
/// D-Bus connection it shows the reminder with "Turn off" and "Settings", writes one status line
/// to stdout for `deliver` (`shown ID` or `failed REASON`) and closes it, then waits for a button
/// on that connection until the notification closes or `--wait-at-most` passes (8 hours unless
/// told; then it takes the notification away, as it does after a button), or until the service that showed it leaves the
/// bus (its name goes to no one or to another service) or the bus connection ends: then no
/// button can come, and it records why in deliveries.jsonl. "Turn off" runs what `notif set tips-and-updates
/// off` runs; "Settings" opens the page in a terminal. When either fails, a notification says so.
extension Commands {
    static let longestActionWait: Double = 8 * 3600

    func reminderActions(_ args: ParsedCommand) -> ExitCode {
        // Nothing of this process may hold the launcher's stderr (a scheduler's pipe, say).
        Self.silence(2)
        let showWithin = (args.decimal("--show-within") ?? 5000) / 1000, waitAtMost = args.decimal("--wait-at-most") ?? Self.longestActionWait
        guard let reminder = LocalReminders.reminder(id: args.arguments[0]) else { return .usage }
        let icon = AppIcon.icon(executable: context.executable, lookup: context.lookup)
        guard let address = context.lookup("DBUS_SESSION_BUS_ADDRESS"), !address.isEmpty else {
            Self.status("failed no D-Bus session bus: DBUS_SESSION_BUS_ADDRESS is not set")
            return .failure
        }
        let shown = SpawnProcessRunner.monotonicNow() + showWithin
        let bus: NotificationBus
        let id: UInt32
        do {
            bus = try NotificationBus(address: address, deadline: shown)
            // Its buttons must outlive a glance: 0 is "never expires" (Desktop Notifications
            // spec), and this waiter takes it away itself at the end of its bounded life.
            id = try bus.notify(summary: reminder.title, body: reminder.body, icon: icon, actions: ReminderAction.allCases,
                                expireMilliseconds: 0, deadline: shown)
        } catch {
            Self.status("failed " + error.message)
            return .failure
        }
        Self.status("shown \(id)")
        let limit = SpawnProcessRunner.monotonicNow() + waitAtMost
        let answer = bus.answer(for: id, until: limit)
        if case .action = answer {
            // dunst, mako and lxqt-notificationd keep the bubble after a button: its buttons would do nothing now.
            bus.close(id, deadline: SpawnProcessRunner.monotonicNow() + 2)
        }
        switch answer {
        case .action(ReminderAction.turnOff.rawValue): turnOff(reminder, icon: icon)
        case .action(ReminderAction.settings.rawValue): openSettings(reminder, icon: icon)
        case .timedOut: bus.close(id, deadline: SpawnProcessRunner.monotonicNow() + 5)   // unanswered for too long: take it away
        case .serviceLeft(let why):
            // Not closed: a new owner of the name does not know this notification's id.
            record(reminder, .skipped, "The waiter for the buttons ended: \(why) before a button was pressed")
        case .busEnded(let why):
            record(reminder, .skipped, "The waiter for the buttons ended: its session bus connection ended (\(why)) before a button was pressed")
        case .action, .closed: break
        }
        return .success
    }

    /// The same path as `notif set SETTING off`; a failure is shown as a notification.
    private func turnOff(_ reminder: LocalReminder, icon: String) {
        let said = Captured()
        let code = Commands(context: context, output: Output(out: said.add, err: said.add)).set(reminder.preference.rawValue, "off")
        // What `set` said, without a line the next one repeats ("Tips & Updates: off", then
        // "Tips & Updates: off, nothing scheduled").
        let lines = said.text.split(separator: "\n").map(String.init)
        let what = lines.filter { line in !lines.contains { $0 != line && $0.hasPrefix(line) } }.joined(separator: "; ")
        guard code != .success else {
            record(reminder, .turnedOff, "Turn off pressed on the notification" + (what.isEmpty ? "" : ": " + what))
            return
        }
        record(reminder, .failed, "Turn off pressed on the notification, but it could not be turned off: " + what)
        tell("\(reminder.title) could not be turned off", said.text + "\nRun notif in a terminal to see why.", icon: icon)
    }

    /// notif's page in a terminal: `x-terminal-emulator -e notif`, else the desktop entry through
    /// `gio launch`. The display comes from the recorded session when this process has none.
    private func openSettings(_ reminder: LocalReminder, icon: String) {
        var environment: [String: String?] = [:]
        if context.lookup("DISPLAY") == nil && context.lookup("WAYLAND_DISPLAY") == nil,
           let text = try? context.state.read(StateFiles.sessionFile) {
            for (name, value) in SessionEnvironment(parsing: text).values where name != "DBUS_SESSION_BUS_ADDRESS" {
                environment[name] = value
            }
        }
        func has(_ name: String) -> Bool { (environment[name] ?? context.lookup(name)).map { !$0.isEmpty } ?? false }
        // With no display, a terminal cannot open, and `gio launch` exits 0 having opened nothing.
        guard has("DISPLAY") || has("WAYLAND_DISPLAY") else {
            let why = "there is no graphical session (neither DISPLAY nor WAYLAND_DISPLAY is set, here or in the recorded session)"
            record(reminder, .failed, "Settings pressed on the notification, but notif's settings could not be opened: " + why)
            tell("notif's settings could not be opened", why + ".\nRun notif in a terminal.", icon: icon)
            return
        }
        var tried: [String] = []
        let program = context.executable ?? "notif"
        var candidates = [["x-terminal-emulator", "-e", program]]
        if let entry = AppIcon.desktopEntryFile(executable: context.executable, lookup: context.lookup) {
            candidates.append(["gio", "launch", entry])
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
        tell("notif's settings could not be opened", tried.joined(separator: "; ") + "\nRun notif in a terminal.", icon: icon)
    }

    /// What a button did, in deliveries.jsonl (`notif history` shows it).
    private func record(_ reminder: LocalReminder, _ outcome: DeliveryOutcome, _ detail: String) {
        _ = service.log(reminder.id, kind: .button, now: context.clock.now(), outcome, detail)
    }

    private func tell(_ summary: String, _ body: String, icon: String) {
        _ = DesktopNotifier(runner: context.runner, icon: icon).show(summary: summary, body: body, environments: [("this session", [:])])
    }

    /// One line for `deliver`, then stdout is closed (the waiter goes on without anyone reading).
    static func status(_ line: String) {
        _ = Posix.writeAll(1, Array((line.replacing("\n", with: " ") + "\n").utf8))
        silence(1)
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
