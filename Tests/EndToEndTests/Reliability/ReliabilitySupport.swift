import Foundation
import Testing
import TestSupport

/// How long the reliability suites run. `make test` runs the short versions; `NOTIF_SOAK=1`
/// (`make soak`) the long ones, and a larger number multiplies the long counts further.
enum Soak {
    static let factor: Int = {
        guard let text = ProcessInfo.processInfo.environment["NOTIF_SOAK"], let n = Int(text), n > 0 else { return 0 }
        return n
    }()

    static var isOn: Bool { factor > 0 }

    /// `short` in a normal run, `long × NOTIF_SOAK` in a soak.
    static func count(short: Int, long: Int) -> Int { isOn ? long * factor : short }

    /// A seed for this run: `NOTIF_SEED=<the seed a failure printed>` replays it (run that one
    /// test with `--filter`), else a fresh one each time.
    static func seed() -> UInt64 { RunSeed.fromEnvironment() }
}


/// Stand-in programs in a directory put first on PATH: real binaries are never replaced.
struct FakeTools {
    let directory: String

    init(in sandbox: Sandbox, name: String = "fake-bin") throws {
        directory = sandbox.path + "/" + name
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        chmod(sandbox.path, 0o755)
        chmod(directory, 0o755)
    }

    /// A `/bin/sh` script named `name`.
    func add(_ name: String, _ script: String) throws {
        let path = directory + "/" + name
        try writeProgram("#!/bin/sh\n" + script + "\n", to: path)
    }

    func remove(_ name: String) {
        unlink(directory + "/" + name)
    }

    /// PATH with the fakes first.
    var path: String { directory + ":/usr/local/bin:/usr/bin:/bin" }
}

/// The bytes of a file (nil when it cannot be read).
func fileBytes(_ path: String) -> Data? {
    FileManager.default.contents(atPath: path)
}

/// Permission bits of `path` itself (a symlink is not followed), or nil when missing.
func permissions(_ path: String) -> Int? {
    var info = stat()
    guard lstat(path, &info) == 0 else { return nil }
    return Int(info.st_mode & 0o7777)
}

/// Every file and directory under `root` (symlinks not followed), as absolute paths.
func walk(_ root: String) -> [String] {
    guard let names = FileManager.default.enumerator(atPath: root)?.allObjects as? [String] else { return [] }
    return names.map { root + "/" + $0 }.sorted()
}

func isDirectory(_ path: String) -> Bool {
    var info = stat()
    return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
}

func isSymlink(_ path: String) -> Bool {
    var info = stat()
    return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK
}

/// A process ended by a signal shows up as 128+N: notif must never end that way.
func endedBySignal(_ result: RunResult) -> Bool {
    result.status >= 128 || result.stderr.contains("Fatal error") || result.stderr.contains("Segmentation fault")
}

/// Text for a failure message with control characters made visible.
func visible(_ text: String, limit: Int = 400) -> String {
    let cut = text.count > limit ? String(text.prefix(limit)) + "…(\(text.count) chars)" : text
    return cut.debugDescription
}

/// Seconds since `start`.
func elapsed(since start: Date) -> Double { Date().timeIntervalSince(start) }

/// Whether this machine lets tests mount a small tmpfs in a private mount namespace.
let canMountTmpfs: Bool = {
    guard isRoot else { return false }
    let probe = try? run(["unshare", "--mount", "--propagation", "private", "sh", "-c",
                          "d=$(mktemp -d) && mount -t tmpfs -o size=64k tmpfs \"$d\" && umount \"$d\" && rmdir \"$d\""],
                         environment: ["PATH": "/usr/sbin:/usr/bin:/sbin:/bin"], timeout: 20)
    return probe?.status == 0
}()

/// When a process ended, noted by Foundation's own thread (not a test lane, which may be busy).
final class ExitTime: @unchecked Sendable {
    private let lock = NSLock()
    private var end: Date?
    func mark() { lock.withLock { end = Date() } }
    var value: Date? { lock.withLock { end } }
}

/// Runs a program like `run`, but waits without holding a thread: the slow cases (a server
/// that drips, a notification service that hangs) then take wall time, not a test lane.
func runAsync(_ argv: [String], environment: [String: String], input: String? = nil, timeout: Double = 60) async throws -> RunResult {
    try await runTimed(argv, environment: environment, input: input, timeout: timeout).result
}

/// `runAsync`, with how long the program itself ran.
func runTimed(_ argv: [String], environment: [String: String], input: String? = nil, timeout: Double = 60) async throws -> (result: RunResult, seconds: Double) {
    let directory = "/tmp/notif-run-" + UUID().uuidString.prefix(8).lowercased()
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let outPath = directory + "/out", errPath = directory + "/err", inPath = directory + "/in", timesPath = directory + "/times"
    for (path, contents) in [(outPath, Data()), (errPath, Data()), (inPath, Data((input ?? "").utf8))] {
        guard FileManager.default.createFile(atPath: path, contents: contents) else { throw E2EFailure("cannot create \(path)") }
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    // A shell around the program notes its start and end (ns): a busy machine that is slow to
    // resume this task does not count, only how long the program itself ran.
    let timed = ["/bin/sh", "-c", "s=$(date +%s%N); \"$@\"; r=$?; e=$(date +%s%N); echo \"$s $e\" > '\(timesPath)'; exit $r", "sh"] + argv
    process.arguments = ["-i"] + environment.keys.sorted().map { "\($0)=\(environment[$0]!)" } + timed
    process.standardInput = try FileHandle(forReadingFrom: URL(fileURLWithPath: inPath))
    process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: outPath))
    process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
    let exited = ExitTime()
    process.terminationHandler = { _ in exited.mark() }
    let start = Date()
    try process.run()
    let deadline = Date().addingTimeInterval(timeout)
    while process.isRunning && Date() < deadline {
        try await Task.sleep(for: .milliseconds(25))
    }
    if process.isRunning {
        kill(process.processIdentifier, SIGKILL)
    }
    process.waitUntilExit()
    let status = process.terminationReason == .exit ? process.terminationStatus : 128 + process.terminationStatus
    let result = RunResult(status: status, stdout: String(decoding: fileBytes(outPath) ?? Data(), as: UTF8.self),
                           stderr: String(decoding: fileBytes(errPath) ?? Data(), as: UTF8.self))
    let times = String(decoding: fileBytes(timesPath) ?? Data(), as: UTF8.self).split(whereSeparator: \.isWhitespace).compactMap { Double($0) }
    let seconds = times.count == 2 ? (times[1] - times[0]) / 1e9 : (exited.value ?? Date()).timeIntervalSince(start)
    return (result, seconds)
}

extension Sandbox {
    func notifAsync(_ args: [String], _ extra: [String: String] = [:], input: String? = nil) async throws -> RunResult {
        try await runAsync([NotifBinary.path] + args, environment: environment(extra), input: input)
    }

    func notifTimed(_ args: [String], _ extra: [String: String] = [:], input: String? = nil) async throws -> (result: RunResult, seconds: Double) {
        try await runTimed([NotifBinary.path] + args, environment: environment(extra), input: input)
    }
}

/// Deletes a throwaway user made by this suite, crontab first, taking the same turn-lock as
/// `TestUser.make` (useradd and userdel both rewrite /etc/passwd).
func deleteUser(_ user: TestUser) {
    precondition(user.name.hasPrefix("notif-t"))
    _ = try? run(["crontab", "-r", "-u", user.name], environment: ["PATH": "/usr/bin:/bin"])
    endProcesses(of: user.name)
    _ = try? run(["flock", "/tmp/notif-tests-useradd.lock", "userdel", "-r", user.name],
                 environment: ["PATH": "/usr/sbin:/usr/bin:/sbin:/bin"])
}

/// Ends every process of the throwaway user `name` (a reminder's waiter still waiting for a
/// service, say): userdel refuses a user with one, and the next test of that name would find it.
func endProcesses(of name: String) {
    precondition(name.hasPrefix("notif-t"))
    let env = ["PATH": "/usr/bin:/bin"]
    _ = waitUntil(10) {
        _ = try? run(["pkill", "-KILL", "-u", name], environment: env)
        return (try? run(["pgrep", "-u", name], environment: env))?.status == 1
    }
}

/// `argv` for the test helpers, which start programs through `env`: env would take a program
/// path holding '=' for a variable assignment, so such a one is started by sh instead.
func direct(_ argv: [String]) -> [String] {
    argv[0].contains("=") ? ["/bin/sh", "-c", "exec \"$0\" \"$@\""] + argv : argv
}

/// What notif puts between `env VAR=...` and a program whose path holds '=' (see `direct`).
func trampoline(_ program: String) -> [String] {
    program.contains("=") ? ["/bin/sh", "-c", "exec \"$0\" \"$@\""] : []
}
