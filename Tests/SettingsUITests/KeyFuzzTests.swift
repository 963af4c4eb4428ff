import Foundation
import Testing
import TestSupport
import SharedLogic
@testable import SettingsUI

/// Random keys, clicks and resizes through the reducer and renderer: nothing crashes, focus
/// never rests on a disabled row, the canvas always has the terminal's size, and the page's
/// "Next reminder" line always agrees with the plan of the settings it shows.
@Suite struct KeyFuzzTests {
    static let keys: [Key] = [
        .up, .down, .left, .right, .enter, .tab, .backTab, .escape, .backspace, .home, .end, .pageUp, .pageDown,
        .char(" "), .char("j"), .char("k"), .char("h"), .char("l"), .char("p"), .char("t"), .char("H"), .char("?"),
        .char("r"), .char("a"), .char("d"), .char("q"), .char("x"), .char("é"), .char("日"), .ctrl("c"), .ctrl("l"), .ctrl("z"),
        .alt("j"), .alt("x"), .alt("d"), .char("s"),
        .function(1), .function(12), .unknown(999),
    ]

    @Test func tenThousandRandomInputs() {
        let soak = Int(ProcessInfo.processInfo.environment["NOTIF_SOAK"] ?? "") ?? 0
        let count = soak > 0 ? 200_000 * soak : 10_000
        let seed = ProcessInfo.processInfo.environment["NOTIF_SEED"].flatMap(UInt64.init) ?? UInt64(Date().timeIntervalSince1970)
        print("key fuzzing (reducer): seed \(seed) (NOTIF_SEED=\(seed) replays it)")
        var random = SeededRandom(seed: seed)
        var state = AppState.start(preferences: NotificationPreferences(), status: SchedulerStatus(scheduler: "cron"),
                                   size: TerminalSize(width: 80, height: 24), unicode: true, onboarding: true)
        var quits = 0
        for step in 0..<count {
            let roll = random.next() % 100
            let action: Action
            if roll < 80 {
                action = .key(Self.keys[Int(random.next() % UInt64(Self.keys.count))])
            } else if roll < 90 {
                action = .click(row: Int(random.next() % 30), column: Int(random.next() % 100))
            } else if roll < 96 {
                action = .resize(TerminalSize(width: Int(random.next() % 140), height: Int(random.next() % 50)))
            } else {
                // The shell's answers arrive too, in the order it would send them.
                action = Self.answer(to: state, roll: random.next())
            }
            let (next, effects) = SettingsApp.update(state, action)
            state = next
            if effects.contains(.quit) {
                quits += 1
                // A quit ends a session: start another, sometimes in onboarding.
                state = AppState.start(preferences: state.preferences, status: state.status, size: state.size,
                                       unicode: random.next() % 2 == 0, onboarding: random.next() % 3 == 0)
            }
            let canvas = SettingsRenderer.render(state)
            #expect(canvas.width == max(0, state.size.width) && canvas.height == max(0, state.size.height), "step \(step) seed \(random.seed)")
            #expect(state.focus.isEnabled(in: state.preferences), "step \(step) seed \(random.seed): focus on a disabled row")
            // What the page shows is always what is saved with the changes not saved yet on top.
            let shown = (state.unsaved + state.pendingSaves.flatMap { $0 }).reduce(state.savedPreferences) { $1.applied(to: $0) }
            #expect(shown == state.preferences, "step \(step) seed \(random.seed): the page shows settings nobody asked for")
            if state.screen == .page && state.dialog == nil && !SettingsApp.isTooSmall(state.size) {
                let line = canvas.text.split(separator: "\n").first { $0.contains("Next reminder:") } ?? ""
                let planned = !LocalReminders.plan(state.preferences).isEmpty
                #expect(line.contains("none") != planned || line.contains("not scheduled") || line.contains("checking"),
                        "step \(step) seed \(random.seed): \(line) but planned is \(planned)")
            }
        }
        #expect(quits > 0)
        print("figures: key fuzzing (reducer): \(count) random keys, clicks and resizes, \(quits) quits, seed \(random.seed); held")
    }

    /// One answer the shell could give now: to the oldest save, to the scheduler work running, or from outside.
    static func answer(to state: AppState, roll: UInt64) -> Action {
        let failing = roll % 4 == 0
        if let batch = state.pendingSaves.first, roll % 3 != 0 {
            return failing ? .commitFailed(changes: batch, preferences: state.savedPreferences, message: "disk full")
                           : .saved(batch.reduce(state.savedPreferences) { $1.applied(to: $0) })
        }
        if state.scheduling.running != nil, roll % 5 != 0 {
            return .applied(status: state.status, problem: failing ? "Not scheduled: crontab hangs" : nil)
        }
        switch roll % 5 {
        case 0: return .changedElsewhere(.settings)
        case 1: return .preferencesReloaded(NotificationPreferences.with { $0.promotions = roll % 2 == 0 })
        case 2: return .changedElsewhere(.deliveries)
        case 3: return .testFinished(succeeded: failing, message: "Test notification shown.")
        default: return .historyLoaded(.records([]))
        }
    }
}
