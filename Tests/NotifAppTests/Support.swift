import Foundation
import LinuxGateway
@testable import NotifApp
import SharedLogic
import Storage
import Synchronization

/// What an `Output` was given, stdout and stderr apart.
final class CapturedOutput {
    var out = ""
    var err = ""

    var output: Output {
        Output(out: { self.out += $0 }, err: { self.err += $0 }, outJSON: { self.out += $0 })
    }
}

struct FixedClock: WallClock {
    var instant: Instant
    func now() -> Instant { instant }
}

/// A temporary home, removed when the last reference goes.
final class Scratch: Sendable {
    let path = FileManager.default.temporaryDirectory.path + "/notif-app-" + UUID().uuidString
    init() { try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) }
    deinit { try? FileManager.default.removeItem(atPath: path) }
    var paths: NotifPaths { NotifPaths(home: path, configHome: path + "/config", stateHome: path + "/state") }
}

/// Answers every program with a script; records the argv of each call.
final class ScriptedRunner: ProcessRunner, Sendable {
    private let calls = Mutex<[[String]]>([])
    let answer: @Sendable ([String]) -> ProcessResult
    init(answer: @escaping @Sendable ([String]) -> ProcessResult = { _ in ProcessResult(exitStatus: 127) }) { self.answer = answer }
    var argvs: [[String]] { calls.withLock { $0 } }

    func run(_ argv: [String], input: [UInt8]?, environment: [String: String?], timeout: Double) throws(SpawnError) -> ProcessResult {
        calls.withLock { $0.append(argv) }
        return answer(argv)
    }
}

/// A context on a scratch home with fixed time (Monday 30 November 2026, 12:00 UTC), zone, scheduler
/// facts and environment; "/usr/local/bin/notif" counts as an installed notif.
struct AppFixture {
    let scratch = Scratch()
    var runner = ScriptedRunner()
    /// A runner of a test's own in place of `runner`.
    var ownRunner: (any ProcessRunner)?
    var forced: SchedulerKind? = .embedded
    var environment: [String: String] = [:]
    var probe = SchedulerProbe(systemdUserManagerRunning: false, cronDaemonRunning: false, crontabProblem: nil)

    var context: NotifContext {
        let environment = self.environment, probe = self.probe
        var context = NotifContext(paths: scratch.paths, clock: FixedClock(instant: Instant(seconds: 1_796_040_000)), zone: .utc,
                                   runner: ownRunner ?? runner, lookup: { environment[$0] }, forcedScheduler: forced, probe: { probe },
                                   executable: "/usr/local/bin/notif")
        context.systemZone = .utc
        context.isExecutable = { $0 == "/usr/local/bin/notif" }
        // The scratch home is under /tmp, which the trust rule refuses; elsewhere it is the real rule.
        let scratchPath = scratch.path
        context.trust = { $0.hasPrefix(scratchPath + "/") || $0 == scratchPath ? nil : TrustedPath.problem($0) }
        return context
    }

    var service: ReminderService { ReminderService(context: context) }
}
