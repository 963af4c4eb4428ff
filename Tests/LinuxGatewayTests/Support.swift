import Foundation
import SharedLogic
import Storage
@testable import LinuxGateway

/// A runner that records every call and answers from a script, for checking exact commands.
final class RecordingRunner: ProcessRunner, @unchecked Sendable {
    struct Call: Equatable {
        var argv: [String]
        /// stdin's bytes, exactly (a crontab need not be UTF-8).
        var input: [UInt8]?
        var environment: [String: String?]
        /// stdin as text, for calls that only carry text.
        var inputText: String? { input.map { String(decoding: $0, as: UTF8.self) } }
    }
    private let lock = NSLock()
    private var _calls: [Call] = []
    var calls: [Call] { lock.withLock { _calls } }
    var argvs: [[String]] { calls.map(\.argv) }
    let respond: @Sendable (Call) throws(SpawnError) -> ProcessResult

    init(respond: @escaping @Sendable (Call) throws(SpawnError) -> ProcessResult) { self.respond = respond }

    func run(_ argv: [String], input: [UInt8]?, environment: [String: String?], timeout: Double) throws(SpawnError) -> ProcessResult {
        let call = Call(argv: argv, input: input, environment: environment)
        lock.withLock { _calls.append(call) }
        return try respond(call)
    }
}

/// A crontab kept in memory behind `crontab -l` / `crontab -` / `crontab -r`, like the real one:
/// bytes in, the same bytes out.
final class CrontabStore: @unchecked Sendable {
    private let lock = NSLock()
    private var table: [UInt8]?
    private var broken: ProcessResult?
    init(_ text: String? = nil) { self.table = text.map { Array($0.utf8) } }
    init(bytes: [UInt8]) { self.table = bytes }
    /// The table as UTF-8 text (for tables that are text).
    var current: String? { lock.withLock { table.map { String(decoding: $0, as: UTF8.self) } } }
    /// The table's exact bytes.
    var currentBytes: [UInt8]? { lock.withLock { table } }
    /// Adds lines at the end, as a user's `crontab -e` would.
    func append(_ text: String) { lock.withLock { table = (table ?? []) + Array(text.utf8) } }
    /// Edits the table as text, as a user would.
    func replace(_ change: (String) -> String) { lock.withLock { table = Array(change(String(decoding: table ?? [], as: UTF8.self)).utf8) } }
    /// Makes every call fail with `result` (nil: work again).
    func breakWith(_ result: ProcessResult?) { lock.withLock { broken = result } }

    func respond(_ call: RecordingRunner.Call) -> ProcessResult {
        lock.withLock {
            if let broken { return broken }
            switch call.argv {
            case ["crontab", "-l"]:
                // As Debian's: a CR byte comes out as the two characters `\r`.
                guard let table else { return ProcessResult(exitStatus: 1, stderr: Array("no crontab for tester\n".utf8)) }
                return ProcessResult(exitStatus: 0, stdout: table.flatMap { $0 == 0x0D ? Array("\\r".utf8) : [$0] })
            case ["crontab", "-e"]:
                // The editor is `/bin/cat`: the table's bytes exactly, or Debian's template for none.
                guard call.environment["VISUAL"] == "/bin/cat" else {
                    return ProcessResult(exitStatus: 1, stderr: Array("unexpected editor \(call.environment)\n".utf8))
                }
                guard let table else {
                    return ProcessResult(exitStatus: 0, stdout: Array("# Edit this file to introduce tasks to be run by cron.\n".utf8),
                                         stderr: Array("no crontab for tester - using an empty one\nNo modification made\n".utf8))
                }
                return ProcessResult(exitStatus: 0, stdout: table, stderr: Array("No modification made\n".utf8))
            case ["crontab", "-"]:
                let new = call.input ?? []
                guard new.last == UInt8(ascii: "\n") else {
                    return ProcessResult(exitStatus: 1, stderr: Array("new crontab file is missing newline before EOF, can't install.\n".utf8))
                }
                table = new
                return ProcessResult(exitStatus: 0)
            case ["crontab", "-r"]:
                guard table != nil else { return ProcessResult(exitStatus: 1, stderr: Array("no crontab for tester\n".utf8)) }
                table = nil
                return ProcessResult(exitStatus: 0)
            default:
                return ProcessResult(exitStatus: 127, stderr: Array("unexpected \(call.argv)\n".utf8))
            }
        }
    }
}

/// A private temporary directory removed when released.
final class Scratch {
    let path: String
    init() {
        path = FileManager.default.temporaryDirectory.path + "/notif-gw-" + UUID().uuidString
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }
    deinit { try? FileManager.default.removeItem(atPath: path) }
    var paths: NotifPaths { NotifPaths(home: path, configHome: path + "/config", stateHome: path + "/state") }
}

struct FixedClock: WallClock {
    var instant: Instant
    func now() -> Instant { instant }
}

func tipsEntry(_ binary: String = "/usr/local/bin/notif") -> ScheduledEntry {
    ScheduledEntry(reminder: LocalReminders.tipsAndUpdates, command: [binary, "deliver", "tips-and-updates"],
                   catchUpCommand: [binary, "deliver", "--catch-up", "tips-and-updates"])
}

/// The configuration the unit tests' entries belong to: the default one, which also takes over
/// the untagged entries of earlier versions.
/// How a cron line runs notif when the entry carries no variables and its home is not known:
/// the where-and-when variables a crontab's own lines may assign, unset (`CronCommand.pinned`).
let cronPins = "/usr/bin/env -u TZ -u TZDIR -u XDG_CONFIG_HOME -u XDG_STATE_HOME -u XDG_DATA_HOME"

let testOwner = ConfigurationID(settingsPath: "/home/tester/.config/notif/settings.json", isDefault: true)
/// Another configuration of the same user (`XDG_CONFIG_HOME=/srv/other`).
let otherOwner = ConfigurationID(settingsPath: "/srv/other/notif/settings.json", isDefault: false)

/// Stands in for the desktop (the notification service and the reminder's waiter): records each
/// reminder handed off and each notification shown, and answers as told.
final class RecordingDesktop: Desktop, @unchecked Sendable {
    private let lock = NSLock()
    private var _handOffs: [(id: String, day: CivilDate)] = []
    private var _shown: [(summary: String, body: String)] = []
    private var _answer: HandoffAnswer = .shown("through the user bus as notification 7, with Turn off and Settings")
    private var _fails = false

    var handOffs: [(id: String, day: CivilDate)] { lock.withLock { _handOffs } }
    var shown: [(summary: String, body: String)] { lock.withLock { _shown } }
    /// What the waiter answers from now on.
    var answer: HandoffAnswer {
        get { lock.withLock { _answer } }
        set { lock.withLock { _answer = newValue } }
    }
    /// Whether a plain notification fails (no service).
    var fails: Bool {
        get { lock.withLock { _fails } }
        set { lock.withLock { _fails = newValue } }
    }

    func handOff(_ reminder: LocalReminder, day: CivilDate, context: NotifContext) -> HandoffAnswer {
        lock.withLock {
            _handOffs.append((reminder.id, day))
            return _answer
        }
    }

    func show(summary: String, body: String, context: NotifContext) -> Result<String, GatewayError> {
        lock.withLock {
            _shown.append((summary, body))
            return _fails ? .failure(GatewayError("the user bus: no notification service runs")) : .success("through the user bus as notification 7")
        }
    }
}
