import Foundation
import Testing
import TestSupport
import SharedLogic
@testable import SettingsUI

/// Random keys, clicks and resizes through the reducer and renderer: nothing crashes, focus
/// never rests on a disabled row, the canvas always has the terminal's size, and the page's
/// "Next reminder" line always agrees with the plan of the settings it shows (the firing time
/// when a reminder is planned, `none` otherwise). Prints its seed; `NOTIF_SEED` replays it.
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
        var random = SeededRandom(seed: RunSeed.fromEnvironment())
        print("key fuzzing (reducer): seed \(random.seed); NOTIF_SEED=\(random.seed) replays this run")
        // cron holds whatever is planned and says when it fires next, so the line can be checked.
        let firing = LocalDateTime(date: CivilDate(year: 2026, month: 11, day: 30), hour: 9, minute: 0)
        let status = SchedulerStatus(scheduler: .cron, installed: Set(LocalReminders.all.map(\.id)), nextFire: [LocalReminders.all[0].id: firing])
        var state = AppState.start(preferences: NotificationPreferences(), status: status,
                                   size: TerminalSize(width: 80, height: 24), unicode: true, onboarding: true)
        var shownPlanned = 0, shownNone = 0
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
                let line = canvas.text.split(separator: "\n").first { $0.contains("Next reminder:") }
                let planned = !LocalReminders.plan(state.preferences).isEmpty
                // Planned: the firing cron reported, nothing else. Not planned: none, and no time.
                let agrees = planned
                    ? line?.hasSuffix("Next reminder: \(firing.shortDisplay)") == true
                    : line?.contains("Next reminder: none") == true && line?.contains(firing.shortDisplay) == false
                #expect(agrees, "step \(step) seed \(random.seed): \(line ?? "no Next reminder line") but planned is \(planned)")
                if planned { shownPlanned += 1 } else { shownNone += 1 }
            }
        }
        #expect(quits > 0)
        // Both sides of the check ran (a run that never planned would prove nothing).
        #expect(shownPlanned > 0 && shownNone > 0, "seed \(random.seed): \(shownPlanned) planned, \(shownNone) not")
        print("figures: key fuzzing (reducer): \(count) random keys, clicks and resizes, \(quits) quits, "
              + "\(shownPlanned) pages with a reminder planned and \(shownNone) without, seed \(random.seed); held")
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
        case 1: return .preferencesReloaded(NotificationPreferences.with { $0[.promotions] = roll % 2 == 0 })
        case 2: return .changedElsewhere(.deliveries)
        case 3: return .testFinished(succeeded: failing, message: "Test notification shown.")
        default: return .historyLoaded(.records([]))
        }
    }
}
