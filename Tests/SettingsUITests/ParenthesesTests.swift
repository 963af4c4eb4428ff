import SharedLogic
import Testing
import TestSupport
@testable import SettingsUI

/// What the page says keeps its parentheses flat and closed, and a cut never leaves one open.
@Suite struct ParenthesesOnThePageTests {
    static let reasons: [NoReminderReason] = [BlockReason.accountProject, .masterSwitchOff, .preferenceOff, .permissionDenied, .permissionNotDetermined]
        .map { NoReminderReason.blocked($0, reminderID: "tips-and-updates") }
        + [.noScheduler, .unreadable, .notInstalled, .nothingDefined]
        + [CannotFire.programMissing("/opt/notif (old)/notif"), .noSystemd, .daemonNotRunning].map { .cannotFire($0) }

    @Test func everyReasonForNoReminder() {
        for reason in Self.reasons {
            #expect(Parentheses.problem(in: NextReminderText.text(for: reason)) == nil)
        }
    }

    /// The shell's longest reasons, as LinuxGateway words them, with a `--scheduler` override first.
    static let chooserStatus: SchedulerStatus = {
        var status = SchedulerStatus.cronFiring
        status.overriddenBy = "--scheduler"
        status.options = [
            SchedulerUsability(choice: .auto, state: .ready, reason: "auto keeps the reminder on its scheduler while that one can hold it, and picks one otherwise. "
                + "Systemd can no longer hold it: no systemd user manager runs, and this machine was not started with systemd; "
                + "auto picked embedded: no systemd user manager runs and cron cannot be used: crontab is not installed or not on PATH (Debian: apt install cron)"),
            SchedulerUsability(choice: .systemd, state: .unusable, reason: "no systemd user manager runs, and this machine was not started with systemd"),
            SchedulerUsability(choice: .cron, state: .unusable, reason: "crontab is not installed or not on PATH (Debian: apt install cron)"),
            SchedulerUsability(choice: .embedded, state: .unusable,
                            reason: "fires only while `notif daemon` runs, and it is not running; `notif daemon --install-autostart` starts it at each login"),
        ]
        return status
    }()

    /// The text inside the dialog's frame, row by row (the frame and its padding left out).
    static func insideTheBox(_ canvas: Canvas) -> [String] {
        guard let top = (0..<canvas.height).first(where: { canvas.text(ofRow: $0).contains("┌") }) else { return [] }
        let rows = (top + 1..<canvas.height).prefix { !canvas.text(ofRow: $0).contains("└") }
        return rows.map { row in
            let line = canvas.text(ofRow: row)
            let parts = line.split(separator: "│", omittingEmptySubsequences: false)
            return parts.count >= 3 ? parts[1].split(separator: " ").joined(separator: " ") : ""
        }
    }

    @Test(arguments: [TerminalSize(width: 80, height: 24), SettingsApp.minimumSize])
    func theChoosersReasonIsShownWhole(size: TerminalSize) {
        for choice in SchedulerPreference.allCases {
            var state = AppState(preferences: .with { $0.permission = .granted }, status: Self.chooserStatus, size: size, unicode: true)
            state.dialog = .schedulerList(selected: choice)
            let inside = Self.insideTheBox(SettingsRenderer.render(state))
            let reason = inside.dropFirst(SchedulerPreference.allCases.count + 2).filter { !$0.isEmpty }.joined(separator: " ")
            let whole = "This run uses cron: --scheduler chose it for this run only; nothing is saved. "
                + Wording.capitalizedFirst(Self.chooserStatus.options.first { $0.choice == choice }!.reason)
            if size == TerminalSize(width: 80, height: 24) {
                #expect(reason == whole, "\(choice): \(inside)")
            } else {
                // Too short a window for the longest reasons: cut, and the cut marked.
                let kept = reason.split(separator: "…").first.map(String.init) ?? ""
                #expect(reason == whole || whole.hasPrefix(kept) && reason.contains("…"), "\(size.width)x\(size.height), \(choice): \(inside)")
            }
            #expect(Parentheses.problem(in: reason) == nil)
        }
    }

    /// Each screen the page draws without a dialog, read whole.
    @Test func everyScreenKeepsItsParenthesesFlatAndClosed() {
        var states: [AppState] = []
        let sizes = [TerminalSize(width: 80, height: 24), SettingsApp.minimumSize]
        let preferences: [NotificationPreferences] = [
            .with { _ in }, .with { $0[.tipsAndUpdates] = true }, .with { $0[.tipsAndUpdates] = true; $0.permission = .granted },
            .with { $0.permission = .denied; $0[.tipsAndUpdates] = true }, .with { $0[.pushNotifications] = false }, .with { $0.mode = .account },
        ]
        for size in sizes {
            for p in preferences {
                for reason in Self.reasons {
                    var status = SchedulerStatus.cronFiring
                    if case .cannotFire(let why) = reason { status.facts.schedulerCannotFire = why }
                    var state = AppState(preferences: p, status: status, size: size, unicode: true)
                    state.error = "Not scheduled: `crontab -` failed (exit 1); your crontab was not changed"
                    states.append(state)
                }
            }
            for step in [OnboardingStep.welcome, .guestReminders, .accountPermission] {
                var state = AppState(preferences: NotificationPreferences(), status: .cronFiring, size: size, unicode: true)
                state.screen = .onboarding(step, focus: .next)
                states.append(state)
            }
            var help = AppState(preferences: .with { _ in }, status: .cronFiring, size: size, unicode: true)
            help.screen = .help(scroll: 0)
            states.append(help)
        }
        for state in states {
            let text = SettingsRenderer.render(state).text
            #expect(Parentheses.problem(in: text) == nil, "\(state.size.width)x\(state.size.height)")
        }
    }
}
