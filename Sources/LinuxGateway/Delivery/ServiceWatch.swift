import Glibc
import SharedLogic
import Storage

/// What a reminder's waiter watches while no notification service can be reached, so that it
/// looks again as soon as one may be there, and otherwise sleeps:
/// - on every session bus it can reach, the owner of `org.freedesktop.Notifications` (a server
///   starting), over a connection kept open;
/// - the sockets of the session buses (the user bus `/run/user/UID/bus` appearing, a recorded
///   session's), the recorded session file, the settings and the zone (inotify); and the user's
///   runtime directory, where a login makes its sockets and files (a sign to look again);
/// - the end of the day (a timer the clock being set cancels), SIGTERM, SIGINT and SIGHUP;
/// - once a minute while a bus has a systemd user manager without a display, that manager's
///   environment: a login puts the display there, which allows activation (`ActivationRule`),
///   and the manager sends no signal when its environment changes, not even to subscribers.
public final class ServiceWatch {
    private let sleeper: EventSleeper
    private var buses: [String: Watched] = [:]
    /// Why each session that could not be reached at the last refresh was not (`this session: cannot connect to …`).
    private var unreachable: [String] = []

    /// A bus watched, by address.
    struct Watched {
        let source: String
        let changes: [String: String?]
        let bus: NotificationBus
        /// The manager's environment (or `[]`: this run's own display) with which activation was
        /// tried and failed: not tried again until it changes.
        var failedActivation: [String]?
        /// Activation was not allowed at the last look, and a systemd user manager is on the bus.
        var managerWithoutDisplay = false
        /// The socket file the connection was made through (device, inode); nil for an abstract one.
        let socket: SocketFile?
    }

    /// A socket file's identity: a new bus started at the same path (a second user manager, a
    /// `dbus-daemon` started again) makes a new file there while the old bus may live on.
    struct SocketFile: Equatable {
        let device: UInt64, inode: UInt64

        /// The file at the path `address` names now, if it names one.
        static func of(_ address: String) -> SocketFile? {
            guard let socket = BusPeer.socket(of: address), !socket.abstract else { return nil }
            var info = stat()
            guard stat(socket.name, &info) == 0 else { return nil }
            return SocketFile(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
        }
    }

    /// How often a manager's environment is looked at while a bus has one without a display.
    static let managerLook: Int64 = 60

    /// nil when the kernel offers no timerfd, inotify or signalfd.
    init?(places: @escaping () -> [WatchedPlace]) {
        guard let sleeper = EventSleeper(places: places) else { return nil }
        self.sleeper = sleeper
    }

    /// The places watched for a waiter of `context`: the zone, the settings, the recorded
    /// session, and the socket of each session bus a run could use.
    static func places(_ context: NotifContext) -> [WatchedPlace] {
        var sockets = ["/run/user/\(getuid())/bus"]
        let recorded = (try? context.state.read(StateFiles.sessionFile)).map(SessionEnvironment.init(parsing:))
        for address in [context.lookup("DBUS_SESSION_BUS_ADDRESS"), recorded?.values["DBUS_SESSION_BUS_ADDRESS"]].compactMap({ $0 }) {
            if let socket = BusPeer.socket(of: address), !socket.abstract { sockets.append(socket.name) }
        }
        var places = DaemonWatches.zone(tz: context.lookup("TZ"), zoneInfoDirectory: context.lookup("TZDIR"))
        places += DaemonWatches.file(context.paths.settingsFile)
        places += DaemonWatches.file(context.paths.stateFile(StateFiles.sessionFile))
        for socket in sockets { places += DaemonWatches.file(socket) }
        places.append(DaemonWatches.directory("/run/user/\(getuid())"))
        var seen = Set<WatchedPlace>()
        return places.filter { seen.insert($0).inserted }
    }

    /// Keeps a connection to each of `sessions` (connecting to new ones, dropping those gone or
    /// ended), each watching the service's owner.
    func refresh(_ sessions: [(source: String, changes: [String: String?])], notifier: DesktopNotifier) {
        var current: [String: Watched] = [:]
        unreachable = sessions.isEmpty ? [DesktopNotifier.noBus] : []
        for session in sessions {
            let address: String? = if let change = session.changes["DBUS_SESSION_BUS_ADDRESS"] { change } else { notifier.lookup("DBUS_SESSION_BUS_ADDRESS") }
            guard let address, !address.isEmpty, current[address] == nil else { continue }
            // A connection lives on while its bus does, though another bus took its path since.
            if var known = buses[address], known.socket == SocketFile.of(address), (try? known.bus.takeSignals()) != nil {
                known.managerWithoutDisplay = false
                current[address] = known
                continue
            }
            let deadline = SystemClock.monotonicNow() + notifier.timeout
            do {
                let socket = SocketFile.of(address)
                let bus = try notifier.connect(session.changes, deadline: deadline)
                try bus.watchOwner(deadline: deadline)
                current[address] = Watched(source: session.source, changes: session.changes, bus: bus, socket: socket)
            } catch {
                unreachable.append("\(session.source): \(error.message)")
            }
        }
        buses = current
    }

    /// One try on every watched bus, best first: the bus starts a server only as `ActivationRule`
    /// allows, and not again with an environment it already failed with. Failure: why, per bus.
    func tryShow(_ reminder: LocalReminder, notifier: DesktopNotifier, order: [String]) -> Result<DesktopNotifier.Shown, GatewayError> {
        var problems = unreachable
        var tried = Set<String>()
        for address in order + buses.keys.sorted() where tried.insert(address).inserted {
            guard var watched = buses[address] else { continue }
            let deadline = SystemClock.monotonicNow() + notifier.timeout
            _ = try? watched.bus.takeSignals()
            var manager: [String]?
            let allowed = ActivationRule.allows(lookup: notifier.lookup, changes: watched.changes,
                                                managerEnvironment: { manager = watched.bus.managerEnvironment(deadline: deadline); return manager })
            let key = manager ?? []
            let activate = allowed && watched.failedActivation != key
            watched.managerWithoutDisplay = !allowed && manager != nil
            switch notifier.show(on: watched.bus, source: watched.source, summary: reminder.title, body: reminder.body,
                                 actions: ReminderAction.allCases, expireMilliseconds: 0, autoStart: activate, deadline: deadline) {
            case .success(let shown):
                buses[address] = nil
                return .success(shown)
            case .failure(let error):
                if activate { watched.failedActivation = key }
                buses[address] = watched
                problems.append("\(watched.source): \(error.message)")
            }
        }
        return .failure(GatewayError(problems.joined(separator: "; ")))
    }

    /// The order sessions come in (best first), as addresses.
    static func order(_ sessions: [(source: String, changes: [String: String?])], lookup: (String) -> String?) -> [String] {
        sessions.compactMap { session in
            if let change = session.changes["DBUS_SESSION_BUS_ADDRESS"] { return change }
            return lookup("DBUS_SESSION_BUS_ADDRESS")
        }
    }

    /// Sleeps until `end`, a change of what is watched, or a signal; no longer than a minute
    /// while a manager's environment needs a look.
    func nap(until end: Instant, now: Instant) -> NapEnd {
        let look = buses.values.contains(where: \.managerWithoutDisplay) ? Instant(seconds: now.seconds + Self.managerLook) : end
        return sleeper.nap(until: min(end, look), alsoReadable: buses.values.map(\.bus.descriptor))
    }
}
