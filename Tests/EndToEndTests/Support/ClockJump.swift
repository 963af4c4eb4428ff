import Foundation

/// The ways a clock jumps over 09:00 that every scheduler lives through with real clocks (zones
/// compiled with `zic`, the jump a minute or two ahead). The one rule: a day whose 09:00 is
/// skipped gets its reminder once, at the first moment after the jump; a day whose 09:00 comes
/// twice gets it once.
enum ClockJump: String, CaseIterable {
    /// Daylight time begins: 08:30 becomes 09:30.
    case gap
    /// A 30-minute daylight saving begins: 08:50 becomes 09:20.
    case halfHour
    /// The system zone is changed (/etc/localtime): 08:50 in the old zone is 09:20 in the new one.
    case swap
    /// Daylight time ends: 09:01 becomes 08:59, so 09:00 comes twice, two minutes apart.
    case fallBack
}

/// One jump set up for a test: the zone the machine starts in, the zone a swap changes it to,
/// the moment of the jump, and when the reminder is due.
final class JumpSetup {
    let jump: ClockJump
    /// The moment the clock jumps (a whole UTC minute).
    let change: Date
    /// The system zone to start in (a zone with a transition at `change`, or the swap's first).
    let zone: String
    /// The zone a swap changes /etc/localtime to at `change`.
    let swapTo: String?
    /// When the reminder is due: the first moment after the jump (`change`), or the first 09:00.
    let due: Date
    /// When the last moment worth watching is: a second 09:00, or the due time.
    let lastNine: Date
    /// How notif writes the due time in the zone after the jump, to the minute (`2026-12-01T09:30`).
    let dueLocal: String
    private let zones: [AnyObject]

    init(_ jump: ClockJump, change: Date) throws {
        self.jump = jump
        self.change = change
        switch jump {
        case .gap, .halfHour:
            let zone = try TransitionZone(at: jump == .gap ? (8, 30) : (8, 50), jump: jump == .gap ? 60 : 30, change: change)
            self.zone = zone.name
            swapTo = nil
            due = change
            lastNine = change
            dueLocal = zone.isoMinute(change)
            zones = [zone]
        case .fallBack:
            let zone = try TransitionZone(at: (9, 1), jump: -2, change: change)
            self.zone = zone.name
            swapTo = nil
            due = zone.moment(9, 0, before: true)
            lastNine = zone.moment(9, 0, before: false)
            dueLocal = zone.isoMinute(due)
            zones = [zone]
        case .swap:
            let old = try ShiftedZone(nineAt: change.addingTimeInterval(600))
            let new = try ShiftedZone(nineAt: change.addingTimeInterval(-1200), offsetAtLeast: old.offsetMinutes)
            zone = old.name
            swapTo = new.name
            due = change
            lastNine = change
            dueLocal = String(new.iso(change).prefix(16))
            zones = [old, new]
        }
    }

    /// The first whole minute at least `lead` seconds from now.
    static func moment(in lead: TimeInterval) -> Date {
        Date(timeIntervalSince1970: ((Date().timeIntervalSince1970 + lead) / 60).rounded(.up) * 60)
    }

    /// Starts the swap, for a swap: a shell entered by `enter` (into the namespace) that waits
    /// until `lead` seconds before `change`, then points /etc/localtime at the new zone by a link
    /// renamed over it, as `timedatectl set-timezone` does. A shell the kernel wakes on time, not
    /// this test's task: on a loaded machine the task woke late, and a swap late by a second can
    /// be late by a minute for cron, which looks at the clock once a minute, on the minute.
    func startSwap(entering enter: [String], lead: TimeInterval = 0, log: String) throws -> ZoneSwap? {
        guard let swapTo else { return nil }
        let at = Int(change.addingTimeInterval(-lead).timeIntervalSince1970)
        let script = "while [ \"$(date +%s)\" -lt \(at) ]; do sleep 0.05; done; "
            + ZonedSystem.swapCommand(to: swapTo)
        return ZoneSwap(process: try BackgroundProcess(enter + ["/bin/sh", "-c", script], environment: ["PATH": "/usr/sbin:/usr/bin:/sbin:/bin"],
                                                       output: log),
                        at: Date(timeIntervalSince1970: TimeInterval(at)), log: log)
    }
}

/// A zone swap under way (`JumpSetup.startSwap`).
struct ZoneSwap {
    let process: BackgroundProcess
    let at: Date
    let log: String

    /// Waits (without holding a thread) until the swap is done; fails unless it was.
    func done() async throws {
        _ = await poll(for: at.timeIntervalSinceNow + 20) { !process.isRunning }
        guard process.exitCode == 0 else {
            throw E2EFailure("the zone swap failed: \((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")")
        }
    }
}
