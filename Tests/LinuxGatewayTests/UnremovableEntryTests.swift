import Testing
import SharedLogic
@testable import LinuxGateway

/// An entry that cannot be removed is never reported as gone: with `crontab` missing, failing
/// or hanging, turning the reminder off fails, says it may still fire, and the crontab keeps it.
@Suite struct UnremovableEntryTests {
    @Test(arguments: ["missing", "failing", "hanging"])
    func turningOffWhenTheCrontabCannotBeChangedIsAFailure(_ fault: String) throws {
        let fixture = ServiceFixture()
        try fixture.save { $0[.tipsAndUpdates] = true; $0.permission = .granted }
        #expect(try fixture.service.apply().succeeded)
        let withEntry = fixture.crontab.current
        switch fault {
        case "missing": fixture.crontabMissing.set()
        case "failing": fixture.crontab.breakWith(ProcessResult(exitStatus: 1, stderr: Array("crontab: cannot read crontab: Input/output error\n".utf8)))
        default: fixture.crontab.breakWith(ProcessResult(exitStatus: nil, signal: 9, timedOut: true))
        }
        for off in [{ (p: inout NotificationPreferences) in p[.tipsAndUpdates] = false }, { $0.permission = .denied }, { $0.mode = .account }] {
            try fixture.save(off)
            let outcome = try fixture.service.apply()
            #expect(!outcome.succeeded && outcome.mayStillFire, "\(fault): \(outcome.report)")
            guard case .failed(let message) = outcome.report.result(for: "tips-and-updates") else {
                Issue.record("\(fault): not a failure: \(outcome.report)")
                continue
            }
            let says = ["missing": "crontab is not installed or not on PATH", "failing": "`crontab -l` failed (exit status 1",
                        "hanging": "did not finish in time"][fault]!
            #expect(message.contains(says), "\(message)")
            try fixture.save { $0[.tipsAndUpdates] = true; $0.permission = .granted; $0.mode = .guest }
        }
        #expect(fixture.crontab.current == withEntry, "nothing was removed, and nothing says it was")
        fixture.crontabMissing.set(false)
        fixture.crontab.breakWith(nil)
        try fixture.save { $0[.tipsAndUpdates] = false }
        let healthy = try fixture.service.apply()
        #expect(healthy.succeeded && !healthy.mayStillFire && healthy.report.result(for: "tips-and-updates") == .cancelled)
        #expect(fixture.crontab.current == nil)
    }

    @Test func removalHintsNameTheScheduler() {
        let fixture = ServiceFixture()
        let service = fixture.service
        // Each names this configuration's own entry (its tag).
        let tag = service.context.configuration.tag
        #expect(service.removalHint(for: .cron, id: "tips-and-updates").contains("# BEGIN notif managed block \(tag)` to `# END notif managed block \(tag)`) with `crontab -e`"))
        #expect(service.removalHint(for: .systemd, id: "tips-and-updates").contains("systemctl --user disable --now notif-tips-and-updates-\(tag).timer"))
        #expect(service.removalHint(for: .systemd, id: "tips-and-updates").contains(fixture.scratch.path + "/.config/systemd/user"))
        #expect(service.removalHint(for: .embedded, id: "tips-and-updates").contains(fixture.scratch.path + "/state/notif/embedded/tips-and-updates.\(tag)"))
    }
}
