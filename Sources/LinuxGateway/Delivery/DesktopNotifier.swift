import SharedLogic
import Storage

/// Shows notifications through the freedesktop notification service over notif's own D-Bus
/// connection (app name notif, notif's icon, the `desktop-entry` hint, normal urgency): on the
/// first of the session buses it is given that has a notification service, each within its own
/// time limit. Buttons only where the service lists "actions". The bus starts a server for it
/// only as `ActivationRule` allows; every other call carries NO_AUTO_START.
public struct DesktopNotifier: Sendable {
    let icon: String
    /// Seconds each bus may take.
    let timeout: Double
    /// This process's environment.
    let lookup: @Sendable (String) -> String?

    public init(icon: String = "", timeout: Double = 5, lookup: @escaping @Sendable (String) -> String? = { Posix.environment($0) }) {
        self.icon = icon
        self.timeout = timeout
        self.lookup = lookup
    }

    /// A notification the service accepted, with the connection that sent it (the one that hears
    /// its buttons).
    public struct Shown {
        public let bus: NotificationBus
        public let id: UInt32
        /// Whether it has the buttons it was asked for.
        public let buttons: Bool
        /// `through the user bus as notification 7, with Turn off and Settings`.
        public let words: String
    }

    /// Tries each session in turn. Failure: why, from every attempt.
    public func show(summary: String, body: String, actions: [ReminderAction] = [], expireMilliseconds: Int32 = 10_000,
                     environments: [(source: String, changes: [String: String?])]) -> Result<Shown, GatewayError> {
        guard !environments.isEmpty else { return .failure(GatewayError(Self.noBus)) }
        var problems: [String] = [], refused: [String] = []
        // Each session its own short time limit: a service that hangs (perhaps one another user
        // put on a stale address) must not keep the notification from the next session.
        for environment in environments {
            let deadline = SystemClock.monotonicNow() + timeout
            let bus: NotificationBus
            do {
                bus = try connect(environment.changes, deadline: deadline)
            } catch {
                problems.append("\(environment.source): \(error.message)")
                if error.name == BusPeer.notUsed { refused.append(problems.last!) }
                continue
            }
            let activation = ActivationRule.allows(lookup: lookup, changes: environment.changes,
                                                   managerEnvironment: { bus.managerEnvironment(deadline: deadline) })
            switch show(on: bus, source: environment.source, summary: summary, body: body, actions: actions,
                        expireMilliseconds: expireMilliseconds, autoStart: activation, deadline: deadline) {
            case .success(let shown):
                // A bus refused on the way is said with it (another user's, in this process's environment).
                guard !refused.isEmpty else { return .success(shown) }
                return .success(Shown(bus: shown.bus, id: shown.id, buttons: shown.buttons,
                                      words: shown.words + " (" + refused.joined(separator: "; ") + ")"))
            case .failure(let error): problems.append("\(environment.source): \(error.message)")
            }
        }
        return .failure(GatewayError(problems.joined(separator: "; ")))
    }

    /// A connection to the session bus `changes` name (or this process's own), when it passes
    /// the rule for session buses (`SessionEnvironment.problem`); else the error says why not
    /// (named `BusPeer.notUsed`).
    public func connect(_ changes: [String: String?], deadline: Double) throws(DBusError) -> NotificationBus {
        let address: String? = if let change = changes["DBUS_SESSION_BUS_ADDRESS"] { change } else { lookup("DBUS_SESSION_BUS_ADDRESS") }
        guard let address, !address.isEmpty else { throw DBusError("DBUS_SESSION_BUS_ADDRESS is not set") }
        let refusal = { (why: String) in DBusError("its bus \(address) is not used: \(why)", name: BusPeer.notUsed) }
        if let problem = SessionEnvironment.problem("DBUS_SESSION_BUS_ADDRESS", address, lookup: lookup) { throw refusal(problem) }
        do {
            return try NotificationBus(address: address, deadline: deadline)
        } catch {
            throw error.name == BusPeer.notUsed ? refusal(error.message) : error
        }
    }

    /// One try on one bus: `GetCapabilities`, then `Notify` (with `actions` when the service has
    /// them). Without `autoStart`, a bus with no server says so rather than start one.
    public func show(on bus: NotificationBus, source: String, summary: String, body: String, actions: [ReminderAction],
                     expireMilliseconds: Int32, autoStart: Bool, deadline: Double) -> Result<Shown, GatewayError> {
        do throws(DBusError) {
            let id: UInt32, buttons: Bool
            if let pending = bus.unansweredNotify {
                // A `Notify` it has not answered yet may still be shown: its answer is awaited, never a second one sent.
                guard let late = try bus.lateNotificationID(deadline: deadline) else { throw DBusError("", name: DBusConnection.timedOut) }
                (id, buttons) = (late, pending.buttons)
            } else {
                let capabilities = try bus.capabilities(autoStart: autoStart, deadline: deadline)
                buttons = !actions.isEmpty && capabilities.contains("actions")
                id = try bus.notify(summary: summary, body: body, icon: icon, actions: buttons ? actions : [],
                                    expireMilliseconds: buttons ? 0 : expireMilliseconds, autoStart: false, deadline: deadline)
            }
            let with = buttons ? ", with " + actions.map(\.label).joined(separator: " and ") : ""
            return .success(Shown(bus: bus, id: id, buttons: buttons, words: "through \(source) as notification \(id)\(with)"))
        } catch {
            return .failure(GatewayError(Self.describe(error, autoStart: autoStart)))
        }
    }

    /// The bus's answer in words.
    static func describe(_ error: DBusError, autoStart: Bool) -> String {
        switch error.name {
        case "org.freedesktop.DBus.Error.ServiceUnknown", "org.freedesktop.DBus.Error.NameHasNoOwner":
            return autoStart ? "no notification service runs, and the bus has none to start"
                : "no notification service runs (outside the graphical session notif does not have the bus start one)"
        case let name? where name.hasPrefix("org.freedesktop.DBus.Error.Spawn") || name == "org.freedesktop.systemd1.NoSuchUnit":
            return "the bus could not start a notification service: \(error.message)"
        case DBusConnection.timedOut?:
            return "the notification service did not answer in time"
        default:
            return error.message
        }
    }

    static let noBus = "no D-Bus session bus: DBUS_SESSION_BUS_ADDRESS is not set, no user bus runs, and no recorded session is served by you (run `notif apply` inside your desktop session)"

    /// The summary shown when the one given is empty or blank.
    public static let fallbackSummary = "notif"

    /// A summary the notification service shows as plain text: control characters and
    /// bidirectional overrides removed (a line break becomes a space), `<` and `>` replaced by
    /// `‹` and `›` (some services, dunst among them, apply markup to the summary too; `&` alone
    /// starts no tag and stays, so `Tips & Updates` is shown as it is). Blank: `fallbackSummary`.
    public static func safeSummary(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n", "\r", "\t": out.append(" ")
            case "<": out.append("\u{2039}")
            case ">": out.append("\u{203A}")
            default: if !TerminalText.needsEscape(scalar) { out.append(scalar) }
            }
        }
        let summary = String(out)
        return summary.allSatisfy(\.isWhitespace) ? fallbackSummary : summary
    }

    /// A body no markup in it can act on: the freedesktop spec lets a service interpret body
    /// markup (`<a href>`, `<img src="file:///...">`), so `&`, `<` and `>` are sent as `&amp;`,
    /// `&lt;` and `&gt;`; control characters other than a line break, and bidirectional
    /// overrides, are removed.
    public static func safeBody(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\n": out += "\n"
            default: if !TerminalText.needsEscape(scalar) { out.unicodeScalars.append(scalar) }
            }
        }
        return out
    }
}
