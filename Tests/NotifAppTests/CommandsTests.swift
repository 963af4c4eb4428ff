import CommandLineInterface
import Foundation
import LinuxGateway
@testable import NotifApp
import SharedLogic
import Storage
import Synchronization
import Testing

/// The commands `set`, `permission`, `apply`, `status`, `deliver`, `test` and `history` on a
/// scratch home with the built-in scheduler (whose entries are files): what each saves, what it
/// schedules, what it says, and its exit code. (The same commands through the binary, on cron and
/// systemd, are in the end-to-end tests.)
@Suite struct CommandsTests {
    let tips = Setting.toggle(.tipsAndUpdates)
    let tipsID = LocalReminders.tipsAndUpdates.id

    func commands(_ fixture: AppFixture, _ captured: CapturedOutput) -> Commands {
        Commands(context: fixture.context, output: captured.output)
    }

    /// `argv` parsed against the declaration, then run, as `notif` does.
    func run(_ argv: [String], _ fixture: AppFixture, _ captured: CapturedOutput) throws(UsageError) -> ExitCode {
        let declaration = NotifCommandLine.declaration
        let parsed = try declaration.parse(try declaration.invocation(argv, environment: { _ in nil }), environment: { _ in nil })
        return try commands(fixture, captured).run(parsed)
    }

    func installed(_ fixture: AppFixture) throws -> [String]? {
        fixture.service.status().installed
    }

    @Test func setWhilePermissionIsUndecidedSavesTheToggleAndSchedulesNothing() throws {
        let fixture = AppFixture(), captured = CapturedOutput()
        #expect(commands(fixture, captured).set(tips, "on") == .success, "\(captured.err)")
        #expect(try fixture.context.store.load().preferences[.tipsAndUpdates])
        #expect(try installed(fixture) == [])
        #expect(captured.out.hasPrefix("Tips & Updates: on\n"), "\(captured.out)")
    }

    @Test func allowingThenTurningOnSchedulesAndTurningOffCancels() throws {
        let fixture = AppFixture(), captured = CapturedOutput()
        let run = commands(fixture, captured)
        #expect(run.permission("allow") == .success)
        #expect(run.set(tips, "on") == .success, "\(captured.err)")
        #expect(try installed(fixture) == [tipsID])
        #expect(run.set(tips, "off") == .success, "\(captured.err)")
        #expect(try installed(fixture) == [])
        #expect(try !fixture.context.store.load().preferences[.tipsAndUpdates])
    }

    /// What `set` says of a scheduled reminder agrees with `status`: the next time when its
    /// scheduler fires here, else why it cannot fire (no notif daemon runs the built-in entry).
    @Test func setSaysWhenTheReminderComesOrWhyItCannotFire() throws {
        var fixture = AppFixture()
        let captured = CapturedOutput()
        #expect(commands(fixture, captured).permission("allow") == .success && commands(fixture, captured).set(tips, "on") == .success)
        #expect(captured.out.contains("Tips & Updates: scheduled daily at 09:00 with embedded; it cannot fire yet: built-in entries fire only while `notif daemon` runs"),
                "\(captured.out)")
        #expect(!captured.out.contains("; next "), "\(captured.out)")

        fixture.probe = SchedulerProbe(systemdUserManagerRunning: false, cronDaemonRunning: false, crontabProblem: nil, embeddedDaemonRunning: true)
        let running = CapturedOutput()
        #expect(commands(fixture, running).set(tips, "off") == .success && commands(fixture, running).set(tips, "on") == .success)
        #expect(running.out.contains("Tips & Updates: scheduled daily at 09:00 with embedded; next Tue 1 Dec 09:00"), "\(running.out)")
    }

    @Test func theMasterSwitchOffCancelsAndKeepsTheToggle() throws {
        let fixture = AppFixture(), captured = CapturedOutput()
        let run = commands(fixture, captured)
        #expect(run.permission("allow") == .success && run.set(tips, "on") == .success)
        #expect(try installed(fixture) == [tipsID])
        #expect(run.set(.toggle(.pushNotifications), "off") == .success, "\(captured.err)")
        #expect(try installed(fixture) == [])
        let saved = try fixture.context.store.load().preferences
        #expect(saved[.tipsAndUpdates] && !saved[.pushNotifications])
    }

    @Test func aValueTheSettingDoesNotTakeIsBadUsageAndChangesNothing() throws {
        let fixture = AppFixture(), captured = CapturedOutput()
        #expect(throws: UsageError(message: "'maybe' is not a value for tips-and-updates; use on or off", command: "set")) {
            try run(["set", "tips-and-updates", "maybe"], fixture, captured)
        }
        #expect(captured.out.isEmpty && captured.err.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: fixture.context.paths.settingsFile), "nothing was written")
        #expect(try run(["set", "tips-and-updates", "on"], fixture, captured) == .success, "the same words with a value it takes")
    }

    @Test func aSettingThatCannotBeSavedFailsNamingThePathAndSchedulesNothing() throws {
        let fixture = AppFixture(), captured = CapturedOutput()
        // A file stands where the settings directory would be made.
        try "not a directory".write(toFile: fixture.scratch.path + "/config", atomically: true, encoding: .utf8)
        #expect(commands(fixture, captured).set(tips, "on") == .failure)
        #expect(captured.err.hasPrefix("notif: nothing was changed: "), "\(captured.err)")
        #expect(captured.err.contains(fixture.scratch.path + "/config"), "\(captured.err)")
        #expect(captured.out.isEmpty)
    }

    @Test func anApplyThatCannotListItsConfigurationWarnsAndStillSchedules() throws {
        let fixture = AppFixture(), captured = CapturedOutput()
        try FileManager.default.createDirectory(atPath: fixture.scratch.path + "/.local/state", withIntermediateDirectories: true)
        try "not a directory".write(toFile: fixture.scratch.path + "/.local/state/notif", atomically: true, encoding: .utf8)
        let run = commands(fixture, captured)
        #expect(run.permission("allow") == .success && run.set(tips, "on") == .success, "\(captured.err)")
        #expect(try installed(fixture) == [tipsID])
        #expect(captured.err.contains("notif: warning: ") && captured.err.contains(fixture.scratch.path + "/.local/state/notif"),
                "\(captured.err)")
        #expect(captured.err.contains("`notif reset --entries` finds this configuration's entries only when run with its"), "\(captured.err)")
    }

    @Test func permissionStatusPrintsTheWordPeopleRead() throws {
        let fixture = AppFixture(), captured = CapturedOutput()
        let run = commands(fixture, captured)
        #expect(run.permission("status") == .success)
        #expect(run.permission("deny") == .success)
        #expect(run.permission("status") == .success)
        let lines = captured.out.split(separator: "\n").map(String.init)
        #expect(lines.first == "Not decided")
        #expect(lines.contains("Permission: Don't allow. Reminders are blocked; `notif permission allow` changes it."))
        #expect(lines.last == "Don't allow")
    }

    @Test func deniedPermissionSchedulesNothingEvenWithTheToggleOn() throws {
        let fixture = AppFixture(), captured = CapturedOutput()
        let run = commands(fixture, captured)
        #expect(run.permission("deny") == .success && run.set(tips, "on") == .success)
        #expect(try installed(fixture) == [])
        #expect(run.permission("allow") == .success)
        #expect(try installed(fixture) == [tipsID], "allowing schedules it")
        #expect(run.permission("deny") == .success)
        #expect(try installed(fixture) == [], "denying cancels it")
        #expect(run.apply() == .success)
        #expect(try installed(fixture) == [])
    }

    @Test func statusSaysWhatIsScheduledAndJSONCarriesTheSameFacts() throws {
        let fixture = AppFixture(), captured = CapturedOutput()
        let run = commands(fixture, captured)
        #expect(run.status(json: false) == .success)
        #expect(captured.out.contains("off (09:00 daily when on)"), "\(captured.out)")
        // Each scheduler in the chooser's words (not the JSON's ready, waiting, unusable), the
        // one in use said first.
        #expect(captured.out.contains("  embedded") && captured.out.contains("in use for this run, cannot fire: fires only while `notif daemon` runs"), "\(captured.out)")
        #expect(run.permission("allow") == .success && run.set(tips, "on") == .success)
        captured.out = ""
        #expect(run.status(json: true) == .success)
        guard case .object(let members)? = try? JSONParser.parse(captured.out) else {
            Issue.record("not a JSON object: \(captured.out)")
            return
        }
        let document = Dictionary(members.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
        #expect(document["installed"] == .array([.string(tipsID)]))
        #expect(document["holder"] == .string("embedded"))
        // No notif daemon runs the built-in entry here: there is no next reminder, and it says why.
        #expect(document["nextReminder"] == .null)
        guard case .object(let cannotFire)? = document["cannotFire"], let entry = cannotFire.first(where: { $0.key == tipsID }),
              case .object(let why) = entry.value else {
            Issue.record("no cannotFire for \(tipsID): \(captured.out)")
            return
        }
        #expect(why.first?.value == .string("daemonNotRunning"), "\(why)")
        // `status --help` names every key (trial 37: lastAttempt and waiting were missing).
        let help = NotifCommandLine.declaration.command("status")!.options.first { $0.long == "--json" }!.summary
        for member in members {
            #expect(help.contains(member.key + " ") || help.contains(member.key + ",") || help.contains(member.key + ")"), "status --help does not name \(member.key)")
        }
    }

    /// A reminder on a scheduler that is not running yet (here `notif daemon`, which its
    /// autostart entry starts at the next login): its time says what it waits for (trial 38).
    @Test func theNextReminderOnASchedulerNotRunningYetSaysWhatItWaitsFor() throws {
        var fixture = AppFixture()
        fixture.probe = SchedulerProbe(systemdUserManagerRunning: false, cronDaemonRunning: false, crontabProblem: nil, embeddedAutostart: true)
        let captured = CapturedOutput()
        let run = commands(fixture, captured)
        #expect(run.permission("allow") == .success && run.set(tips, "on") == .success)
        captured.out = ""
        #expect(run.status(json: false) == .success)
        let next = captured.out.split(separator: "\n").first { $0.hasPrefix("Next reminder:") } ?? ""
        #expect(next.hasSuffix(", once `notif daemon` starts at your next desktop login"), "\(captured.out)")
        #expect(captured.out.contains("in use for this run, not running yet: "), "\(captured.out)")
    }

    @Test func deliveringAnUnknownReminderIsBadUsage() {
        let fixture = AppFixture(), captured = CapturedOutput()
        #expect(throws: UsageError(message: "unknown reminder 'no-such-reminder'; use tips-and-updates", command: "deliver")) {
            try run(["deliver", "no-such-reminder"], fixture, captured)
        }
        #expect(captured.out.isEmpty && captured.err.isEmpty && fixture.desktop.handOffs.isEmpty)
    }

    @Test func aTestNotificationBeforePermissionSaysHowToAllow() {
        let fixture = AppFixture(), captured = CapturedOutput()
        #expect(commands(fixture, captured).test() == .failure)
        #expect(captured.err.contains("permission is Not decided"), "\(captured.err)")
        #expect(captured.err.contains("`notif permission allow`"), "\(captured.err)")
        #expect(fixture.runner.argvs.isEmpty && fixture.desktop.shown.isEmpty, "nothing was started or shown")
    }

    @Test func historyListsTheLogNewestFirstAndSaysWhenEmpty() throws {
        let fixture = AppFixture(), captured = CapturedOutput()
        let run = commands(fixture, captured)
        #expect(run.history(limit: 20, json: false) == .success)
        #expect(captured.out == "No deliveries yet.\n")
        // A run at 12:00, after 09:00 and nothing shown yet today: the reminder, recorded.
        try fixture.context.store.update { $0[.tipsAndUpdates] = true; $0.permission = .granted }
        _ = run.deliver(LocalReminders.tipsAndUpdates)
        #expect(fixture.desktop.handOffs == [tipsID])
        captured.out = ""
        #expect(run.history(limit: 20, json: true) == .success)
        let lines = captured.out.split(separator: "\n")
        #expect(lines.count == 1, "\(captured.out)")
        #expect(lines.first?.contains("\"reminder\":\"\(tipsID)\"") == true, "\(captured.out)")
    }
}

/// The configuration list's lock: an apply holds it while it writes its entries, and
/// `reset --entries` for its whole run, so a reset never drops the record of a configuration
/// whose entries were written while it looked. Checked from inside `crontab`, where each writes.
@Suite struct ConfigurationListLockTests {
    /// A crontab of one user in memory; each write notes whether the list's lock was held then.
    final class LockWatchingCrontab: ProcessRunner, Sendable {
        let lockPath: String
        private let state = Mutex<(table: [UInt8]?, heldAtWrite: [Bool])>((nil, []))
        init(lockPath: String) { self.lockPath = lockPath }
        var heldAtWrite: [Bool] { state.withLock { $0.heldAtWrite } }

        func run(_ argv: [String], input: [UInt8]?, environment: [String: String?], timeout: Double) throws(SpawnError) -> ProcessResult {
            guard argv.first == "crontab" else { return ProcessResult(exitStatus: 127) }
            let held: Bool
            do { held = try FileLock.tryAcquire(lockPath) == nil } catch { held = false }
            return state.withLock { state in
                switch argv.last {
                case "-l":
                    guard let table = state.table else { return ProcessResult(exitStatus: 1, stderr: Array("no crontab for u\n".utf8)) }
                    return ProcessResult(exitStatus: 0, stdout: table)
                case "-e":
                    // The exact read, with cat for the editor: installs nothing.
                    guard let table = state.table else { return ProcessResult(exitStatus: 0, stderr: Array("no crontab for u - using an empty one\n".utf8)) }
                    return ProcessResult(exitStatus: 0, stdout: table)
                case "-r":
                    state.heldAtWrite.append(held)
                    state.table = nil
                    return ProcessResult(exitStatus: 0)
                default:
                    state.heldAtWrite.append(held)
                    state.table = input
                    return ProcessResult(exitStatus: 0)
                }
            }
        }
    }

    @Test func anApplyWritesItsEntriesAndAResetRemovesThemHoldingTheListsLock() throws {
        var fixture = AppFixture()
        fixture.forced = .cron
        let crontab = LockWatchingCrontab(lockPath: fixture.scratch.path + "/.local/state/notif/configurations.lock")
        fixture.ownRunner = crontab
        try fixture.context.store.update { $0[.tipsAndUpdates] = true; $0.permission = .granted }
        let outcome = try fixture.service.apply()
        #expect(outcome.succeeded && outcome.notice == nil, "\(outcome.report)")
        #expect(crontab.heldAtWrite == [true], "the crontab was written without the list's lock")
        #expect(try fixture.service.configurationList.read().records.count == 1)

        _ = try fixture.service.removeAllEntries()
        #expect(crontab.heldAtWrite.count >= 2 && crontab.heldAtWrite.allSatisfy { $0 }, "the reset wrote without the list's lock: \(crontab.heldAtWrite)")
        // Released afterwards: another run can take it.
        #expect(try FileLock.tryAcquire(crontab.lockPath) != nil)
    }
}
