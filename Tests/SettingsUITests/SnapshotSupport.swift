import Foundation
import Testing
import SharedLogic
@testable import SettingsUI

/// Compares a rendered canvas with `Snapshots/<name>.txt`: recorded when missing (the test
/// then fails once, so a new snapshot is always looked at), diffed line by line on failure.
/// Set NOTIF_RECORD_SNAPSHOTS=1 to re-record after an intended change.
func assertSnapshot(_ canvas: Canvas, named name: String, filePath: String = #filePath, sourceLocation: SourceLocation = #_sourceLocation) {
    let dir = URL(fileURLWithPath: filePath).deletingLastPathComponent().appendingPathComponent("Snapshots")
    let file = dir.appendingPathComponent(name + ".txt")
    let actual = canvas.text
    let record = ProcessInfo.processInfo.environment["NOTIF_RECORD_SNAPSHOTS"] == "1"
    guard !record, let expected = try? String(contentsOf: file, encoding: .utf8) else {
        try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try? actual.write(to: file, atomically: true, encoding: .utf8)
        if !record {
            Issue.record("recorded new snapshot \(name).txt; check it and run again", sourceLocation: sourceLocation)
        }
        return
    }
    if expected != actual {
        let a = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let b = actual.split(separator: "\n", omittingEmptySubsequences: false)
        var diff: [String] = []
        for i in 0..<max(a.count, b.count) {
            let x = i < a.count ? String(a[i]) : "<none>"
            let y = i < b.count ? String(b[i]) : "<none>"
            if x != y { diff.append("line \(i + 1):\n  expected |\(x)|\n  actual   |\(y)|") }
        }
        let message = diff.joined(separator: "\n")
        Issue.record("snapshot \(name) differs:\n\(message)", sourceLocation: sourceLocation)
    }
}

/// A scripted session: a state and the effects each step asked for.
struct Script {
    var state: AppState
    /// The effects keys and clicks asked for (not those answers led to).
    var effects: [Effect] = []
    /// The effects that came from the stand-in shell's answers (an apply after a save, a quit
    /// that waited for one).
    var settled: [Effect] = []
    /// Answer every save and scheduler read as the shell would when it works (saved, scheduled),
    /// so the next key starts from a settled page; off for tests that answer themselves.
    var settles = true

    /// What the stand-in shell answers when the chooser looks at the schedulers: what the
    /// first status said.
    var checkedOptions: [SchedulerUsability]

    init(_ state: AppState) {
        self.state = state
        checkedOptions = state.status.options
    }

    init(preferences: NotificationPreferences = NotificationPreferences(), status: SchedulerStatus = .cronFiring,
         size: TerminalSize = TerminalSize(width: 80, height: 24), unicode: Bool = true) {
        state = AppState(preferences: preferences, status: status, size: size, unicode: unicode)
        checkedOptions = status.options
    }

    @discardableResult
    mutating func send(_ actions: Action...) -> [Effect] {
        var produced: [Effect] = []
        for action in actions {
            let (next, effects) = SettingsApp.update(state, action)
            state = next
            produced += effects
            if settles { answer(effects) }
        }
        effects += produced
        return produced
    }

    @discardableResult
    mutating func press(_ keys: Key...) -> [Effect] {
        var produced: [Effect] = []
        for key in keys { produced += send(.key(key)) }
        return produced
    }

    /// Stands in for a shell whose saves and applies work: each commit saved, each apply and
    /// refresh answered with the status the page shows, until nothing more is asked.
    mutating func answer(_ effects: [Effect]) {
        var queue = effects
        while !queue.isEmpty {
            let reply: Action?
            switch queue.removeFirst() {
            case .commit(let changes): reply = .saved(changes.reduce(state.savedPreferences) { $1.applied(to: $0) })
            case .apply: reply = .applied(status: state.status, problem: nil)
            case .refreshStatus: reply = .statusRefreshed(state.status)
            case .checkSchedulers: reply = .schedulersChecked(checkedOptions)
            default: reply = nil
            }
            guard let reply else { continue }
            let (next, more) = SettingsApp.update(state, reply)
            state = next
            settled += more
            queue += more
        }
    }

    /// Answers the oldest save as saved and the scheduler work as done (for tests that answer themselves).
    mutating func settle() {
        let wasSettling = settles
        settles = true
        if let batch = state.pendingSaves.first { send(.saved(batch.reduce(state.savedPreferences) { $1.applied(to: $0) })) }
        if state.scheduling.running != nil { send(.applied(status: state.status, problem: nil)) }
        settles = wasSettling
    }

    var canvas: Canvas { SettingsRenderer.render(state) }
    var screen: String { canvas.text }
}

extension SchedulerStatus {
    /// cron holding whatever is planned, next firing Mon 30 Nov 09:00.
    static let cronFiring = SchedulerStatus(scheduler: .cron, installed: ["tips-and-updates"], warnings: [], nextFire: nine)
    /// Tips & Updates next fires Mon 30 Nov 09:00.
    static let nine = ["tips-and-updates": LocalDateTime(date: CivilDate(year: 2026, month: 11, day: 30), hour: 9, minute: 0)]
}

extension NotificationPreferences {
    static func with(_ change: (inout NotificationPreferences) -> Void) -> NotificationPreferences {
        var p = NotificationPreferences()
        p.onboardingCompleted = true
        change(&p)
        return p
    }
}
