import Foundation
import SharedLogic
import Storage
@testable import LinuxGateway

/// A wall clock the test moves by hand.
final class ManualClock: WallClock, @unchecked Sendable {
    private let lock = NSLock()
    private var current: Instant
    init(_ start: Instant) { current = start }
    convenience init(_ iso: String) { self.init(ISO8601.parse(iso)!) }
    func now() -> Instant { lock.withLock { current } }
    func set(_ instant: Instant) { lock.withLock { current = instant } }
    func set(_ iso: String) { set(ISO8601.parse(iso)!) }
    func advance(_ seconds: Int64) { lock.withLock { current = current.adding(seconds: seconds) } }
}

/// Answers `systemctl --user` as this machine does: the file-only operations notif runs with
/// `SYSTEMD_OFFLINE=1` (enable, disable) go to the real systemctl, on the scratch directory's
/// files; operations that need a user manager get `managerAnswer` (success unless told otherwise).
final class SystemctlDouble: @unchecked Sendable {
    let paths: NotifPaths
    private let lock = NSLock()
    private var answer: @Sendable ([String]) -> ProcessResult = { _ in ProcessResult(exitStatus: 0) }

    init(paths: NotifPaths) { self.paths = paths }

    func setManagerAnswer(_ answer: @escaping @Sendable ([String]) -> ProcessResult) { lock.withLock { self.answer = answer } }

    func respond(_ call: RecordingRunner.Call) -> ProcessResult {
        if call.environment["SYSTEMD_OFFLINE"] == .some("1") {
            // The directory the gateway names (the user manager's), as the real runner would pass it.
            let config = call.environment["XDG_CONFIG_HOME"] ?? nil
            let env: [String: String?] = ["HOME": paths.home, "XDG_CONFIG_HOME": config ?? paths.configHome, "SYSTEMD_OFFLINE": "1"]
            do {
                return try SpawnProcessRunner().run(call.argv, input: nil, environment: env, timeout: 30)
            } catch {
                return ProcessResult(exitStatus: 127, stderr: Array("\(error)".utf8))
            }
        }
        return lock.withLock { answer }(call.argv)
    }
}

/// Stands in for the daemon's sleeper on a simulated clock: a nap moves the clock to its wake
/// time, unless an event (a clock jump, a settings edit, a zone change) comes first: then the
/// clock stops there, the event happens and the nap ends at once, as the real sleeper's
/// timerfd (cancelled by a clock set) and inotify would end it. It stops at `end`.
final class SimulatedSleeper: DaemonSleeper {
    let clock: ManualClock
    let end: Instant
    private var events: [(at: Instant, action: () -> Void)]
    private(set) var napCount = 0
    private(set) var longestNap: Int64 = 0
    /// Naps asked for with no wake time at all.
    private(set) var untimedNaps = 0

    init(clock: ManualClock, until end: Instant, events: [(at: Instant, action: () -> Void)] = []) {
        self.clock = clock
        self.end = end
        self.events = events.sorted { $0.at < $1.at }
    }

    func nap(until wake: Instant?) -> NapEnd {
        napCount += 1
        if wake == nil { untimedNaps += 1 }
        let now = clock.now()
        var target = min(wake ?? end, end)
        if let first = events.first, first.at < target { target = first.at }
        target = max(target, now)
        longestNap = max(longestNap, target.seconds - now.seconds)
        clock.set(target)
        var happened = false
        while let first = events.first, first.at <= clock.now() {
            events.removeFirst()
            first.action()
            happened = true
        }
        if clock.now() >= end { return .stop }
        return happened ? .changed : .elapsed
    }
}

/// A switchable zone for the daemon's "ask the zone again on every wake".
final class ZoneBox: @unchecked Sendable {
    private let lock = NSLock()
    private var zone: ZoneRules
    init(_ zone: ZoneRules) { self.zone = zone }
    var current: ZoneRules { lock.withLock { zone } }
    func set(_ zone: ZoneRules) { lock.withLock { self.zone = zone } }
}

func systemZone(_ name: String) -> ZoneRules {
    try! ZoneRules(tzif: Array(FileManager.default.contents(atPath: "/usr/share/zoneinfo/" + name)!), name: name)
}

/// A thread-safe on/off switch for test doubles.
final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    var isSet: Bool { lock.withLock { value } }
    func set(_ on: Bool = true) { lock.withLock { value = on } }
}
