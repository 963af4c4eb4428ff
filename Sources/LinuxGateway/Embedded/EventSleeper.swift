import CLinuxEvents
import Glibc
import SharedLogic
import Storage

/// `notif daemon`'s sleeper: one `poll` on three descriptors and nothing else, so an idle
/// daemon is never woken for nothing:
/// - a timerfd on the real-time clock, armed with the absolute wake time and cancelled when the
///   clock is set or the machine resumes (`TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET`);
/// - inotify on the places `DaemonWatches` names (zone, settings, schedule; settings.json only
///   once a write to it is finished), watched from the moment this is made and again as each
///   nap ends, so a change made while the caller looks (between two naps) still ends the next;
/// - a signalfd for SIGTERM and SIGINT (stop) and SIGHUP (wake), blocked from the moment this
///   is made, so a signal sent right after start or during a delivery is not lost.
///
/// Without inotify (`fs.inotify.max_user_instances` used up) it still runs: no nap then lasts
/// longer than `blindNap`, so the caller sees changes by looking, within a minute.
public final class EventSleeper: DaemonSleeper {
    private let timer: Int32
    private let notices: Inotify?
    /// The longest nap when there are no change notices.
    var blindNap: Int64 = 60
    private let signals: Int32
    private let places: () -> [WatchedPlace]
    /// The places watched now, by watch descriptor (places in one directory share one watch).
    private var watches: [Int32: [WatchedPlace]] = [:]
    /// A notice that mattered came while no nap was on (read before its watch was replaced).
    private var changedMeanwhile = false

    static let directoryEvents = UInt32(IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | IN_CLOSE_WRITE | IN_MODIFY
                                        | IN_ATTRIB | IN_DELETE_SELF | IN_MOVE_SELF) | UInt32(IN_ONLYDIR)
    static let fileEvents = UInt32(IN_ATTRIB | IN_MODIFY | IN_CLOSE_WRITE | IN_DELETE_SELF | IN_MOVE_SELF) | UInt32(IN_DONT_FOLLOW)

    /// nil when the kernel refuses the timer or the signal descriptor; the stop signals are
    /// blocked either way. `notices` nil: no change notices (see `blind`).
    public init?(places: @escaping () -> [WatchedPlace], notices: Inotify? = Inotify()) {
        signals = notif_stop_signals_fd()
        timer = notif_realtime_timer_create()
        guard signals >= 0, timer >= 0 else {
            for fd in [signals, timer] where fd >= 0 { close(fd) }
            return nil
        }
        self.notices = notices
        self.places = places
        refreshWatches()
    }

    deinit {
        for fd in [signals, timer] { close(fd) }
    }

    /// No change notices: changes are seen by looking, at least every `blindNap` seconds.
    public var blind: Bool { notices == nil }

    /// The places watched now (for tests and the daemon's log).
    public var watched: [WatchedPlace] { watches.values.flatMap { $0 } }

    public func nap(until wake: Instant?) -> NapEnd { nap(until: wake, alsoReadable: []) }

    /// `nap(until:)`, ending as `.changed` too when one of `extra` (a D-Bus connection, say) has
    /// something to read.
    public func nap(until wake: Instant?, alsoReadable extra: [Int32]) -> NapEnd {
        // Places the last look made (a socket, a recorded session) join; a file replaced while
        // this slept is watched again before the caller looks.
        refreshWatches()
        defer { refreshWatches() }
        if changedMeanwhile {
            changedMeanwhile = false
            return .changed
        }
        // A time before the epoch cannot be armed; such a wake is due at once anyway.
        var armed = wake.map { max(1, $0.seconds) }
        if blind { armed = min(armed ?? .max, Int64(time(nil)) + blindNap) }
        _ = notif_realtime_timer_arm(timer, armed ?? -1)
        // poll passes over a negative descriptor: with no notices, nothing comes on that one.
        var fds = [pollfd(fd: signals, events: Int16(POLLIN), revents: 0),
                   pollfd(fd: timer, events: Int16(POLLIN), revents: 0),
                   pollfd(fd: notices?.fd ?? -1, events: Int16(POLLIN), revents: 0)]
            + extra.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        while true {
            for i in fds.indices { fds[i].revents = 0 }
            let ready = poll(&fds, nfds_t(fds.count), -1)
            if ready < 0 {
                if errno == EINTR { continue }
                return .elapsed   // cannot wait: look at the clock, and the next nap tries again
            }
            if fds[0].revents != 0 {
                switch notif_stop_signals_read(signals) {
                case SIGTERM, SIGINT: return .stop
                case SIGHUP: return .changed
                default: break
                }
            }
            if fds[1].revents != 0 {
                switch notif_realtime_timer_read(timer) {
                case Int32(NOTIF_TIMER_EXPIRED): return .elapsed
                case Int32(NOTIF_TIMER_CLOCK_SET): return .clockChanged
                case Int32(NOTIF_TIMER_ERROR): return .elapsed
                default: break
                }
            }
            if fds[2].revents != 0, readNotices() { return .changed }
            if fds.dropFirst(3).contains(where: { $0.revents != 0 }) { return .changed }
        }
    }

    /// Adds a watch for every place wanted now (the same directory again is the same watch; a
    /// replaced file gets a new one) and drops the others.
    private func refreshWatches() {
        guard let notices else { return }
        // Notices already queued are read with the watches they came on, before any is dropped.
        if readNotices() { changedMeanwhile = true }
        var current: [Int32: [WatchedPlace]] = [:]
        for place in places() {
            let mask = place.names == nil ? Self.fileEvents : Self.directoryEvents
            // IN_MASK_ADD: a directory holding several places keeps every place's events.
            if let wd = notices.add(place.path, mask: mask | UInt32(IN_MASK_ADD)) { current[wd, default: []].append(place) }
        }
        for wd in watches.keys where current[wd] == nil { notices.remove(wd) }
        watches = current
    }

    /// Reads every pending notice; whether any of them matters.
    private func readNotices() -> Bool {
        var matters = false
        for notice in notices?.read() ?? [] {
            if notice.mask & UInt32(IN_Q_OVERFLOW) != 0 { matters = true; continue }
            // A watch this sleeper dropped itself says so; any other notice needs its places.
            guard let places = watches[notice.watch] else { continue }
            // The watched directory or file itself went away or moved: look again.
            if notice.mask & UInt32(IN_IGNORED | IN_DELETE_SELF | IN_MOVE_SELF) != 0 { matters = true; continue }
            let finished = notice.mask & UInt32(IN_CLOSE_WRITE | IN_MOVED_TO) != 0
            if places.contains(where: { $0.matters(notice.name, finishedWrite: finished) }) { matters = true }
        }
        return matters
    }
}
