import Testing
import SharedLogic
import TestSupport
@testable import LinuxGateway

/// What notif says about schedulers and the status keeps its parentheses flat and closed: a
/// reason it carries (a crontab problem, why a scheduler cannot hold the reminder) follows a
/// colon, whatever that reason holds.
@Suite struct MessageParenthesesTests {
    static let crontabProblems: [String?] = [nil, CronGateway.crontabMissing, "notif-t is not in /etc/cron.allow"]

    /// Every combination of the machine's facts.
    static var probes: [SchedulerProbe] {
        var probes: [SchedulerProbe] = []
        for bits in 0..<32 {
            for crontab in crontabProblems {
                probes.append(SchedulerProbe(systemdUserManagerRunning: bits & 1 != 0, cronDaemonRunning: bits & 2 != 0, crontabProblem: crontab,
                                             embeddedDaemonRunning: bits & 4 != 0, systemdBooted: bits & 8 != 0, embeddedAutostart: bits & 16 != 0))
            }
        }
        return probes
    }

    @Test func schedulerChoicesAndUsabilityKeepParenthesesFlatAndClosed() {
        var texts: [String] = []
        let all = Set(SchedulerKind.allCases)
        for probe in Self.probes {
            texts += SchedulerUsability.all(probe: probe).map(\.reason)
            for saved in SchedulerPreference.allCases {
                let placements: [SchedulerPlacement?] = [nil] + SchedulerKind.allCases.flatMap { holder in
                    [SchedulerPlacement(holder: holder, choice: saved), SchedulerPlacement(holder: holder, choice: .auto, override: "--scheduler \(holder.rawValue)")]
                }
                for placement in placements {
                    for override in [nil] + SchedulerKind.allCases.map(Optional.some) {
                        for choosing in [false, true] {
                            let choice = SchedulerDetection.decide(override: override, saved: saved, placement: placement, choosing: choosing,
                                                                   probe: probe, available: all, overrideSource: "NOTIF_SCHEDULER")
                            texts += [choice.why] + choice.warnings
                        }
                    }
                }
            }
        }
        #expect(texts.count > 1000)
        var seen: Set<String> = []
        for text in texts where seen.insert(text).inserted {
            #expect(Parentheses.problem(in: text) == nil)
        }
    }

    @Test func statusWordsKeepParenthesesFlatAndClosed() {
        var texts: [String] = []
        for block in [BlockReason.accountProject, .masterSwitchOff, .preferenceOff, .permissionDenied, .permissionNotDetermined] {
            texts.append(StatusWords.noReminder(.blocked(block, reminderID: "tips-and-updates")))
        }
        for why in [CannotFire.programMissing("/opt/notif (old)/notif"), .noSystemd, .daemonNotRunning] {
            texts += [StatusWords.noReminder(.cannotFire(why)), StatusWords.cannotFire(why)]
        }
        texts += [NoReminderReason.noScheduler, .unreadable, .notInstalled, .nothingDefined].map(StatusWords.noReminder)
        for text in texts {
            #expect(Parentheses.problem(in: text) == nil)
        }
    }
}
