import Foundation
import LinuxGateway
import Storage
import Synchronization

/// The notif binary `swift build` made, next to this test bundle.
enum NotifBinary {
    /// The debug binary the tests run: the build's, or its copy where only root can write when
    /// the checkout is somewhere notif rightly schedules nothing from (under /tmp, say).
    static let path: String = {
        guard TrustedPath.problem(built) != nil else { return built }
        do { return try trustedCopy(of: built, as: "debug") } catch { fatalError("\(error)") }
    }()

    /// Where `swift build` put the debug binary, next to this test bundle.
    static let built: String = {
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var dir = bundle.deletingLastPathComponent()
        if dir.lastPathComponent.hasSuffix(".xctest") { dir = dir.deletingLastPathComponent() }
        for candidate in [dir, bundle.deletingLastPathComponent()] {
            let path = candidate.appendingPathComponent("notif").path
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        fatalError("notif binary not found near \(bundle.path); run `swift build` first")
    }()

    /// The release binary (`make release`), which `make run`, `make install` and the package ship:
    /// what the end-to-end tests of real schedulers run. It must not be older than the debug
    /// build next to this test bundle (a stale one would test old code).
    static func release() throws -> String {
        let debug = URL(fileURLWithPath: built).resolvingSymlinksInPath()
        let release = debug.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("release/notif").path
        let modified = { (p: String) in (try? FileManager.default.attributesOfItem(atPath: p)[.modificationDate] as? Date) ?? nil }
        guard FileManager.default.isExecutableFile(atPath: release), let built = modified(release), let tested = modified(debug.path) else {
            throw E2EFailure("no release binary at \(release): run `make release` (make test builds it first)")
        }
        guard built >= tested.addingTimeInterval(-5) else {
            throw E2EFailure("\(release) is older than the debug build next to the tests: run `make release` first")
        }
        return TrustedPath.problem(release) == nil ? release : try trustedCopy(of: release, as: "release")
    }

    /// A binary copied once per kind, for this test process, to where only root can write: a
    /// checkout under /tmp (say) is a place notif rightly schedules nothing from.
    private static func trustedCopy(of binary: String, as kind: String) throws -> String {
        try copies.withLock { copied in
            if let made = copied[kind] { return made }
            let dir = Sandbox.base + "/" + kind + "-" + UUID().uuidString.prefix(8).lowercased()
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            chmod(dir, 0o755)
            let result = try run(["cp", "-p", binary, dir + "/notif"], environment: ["PATH": "/usr/bin:/bin"])
            guard result.status == 0 else { throw E2EFailure("cp notif: \(result)") }
            copied[kind] = dir + "/notif"
            return dir + "/notif"
        }
    }
    private static let copies = Mutex<[String: String]>([:])

    /// A copy of the release binary, like `publicCopy`.
    static func releaseCopy(in sandbox: Sandbox, directory: String = "rel bin 100%") throws -> String {
        let dir = sandbox.path + "/" + directory
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let target = dir + "/notif"
        let copied = try run(["cp", try release(), target], environment: ["PATH": "/usr/bin:/bin"])
        guard copied.status == 0 else { throw E2EFailure("cp notif: \(copied)") }
        for p in [sandbox.path, dir] { chmod(p, 0o755) }
        chmod(target, 0o755)
        return target
    }

    /// A copy in a world-readable directory whose path holds a space and a `%`, so throwaway
    /// users can run it and every scheduler's quoting is exercised.
    static func publicCopy(in sandbox: Sandbox, directory: String = "my bin 100%") throws -> String {
        let dir = sandbox.path + "/" + directory
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let target = dir + "/notif"
        // Copied by `cp`, not in this process: a file this multi-threaded process held open for
        // writing would leak into children other tests spawn meanwhile, and exec would then fail
        // with "Text file busy".
        let copied = try run(["cp", path, target], environment: ["PATH": "/usr/bin:/bin"])
        guard copied.status == 0 else { throw E2EFailure("cp notif: \(copied)") }
        for p in [sandbox.path, dir] { chmod(p, 0o755) }
        chmod(target, 0o755)
        return target
    }
}

/// A private directory tree for one test: HOME and XDG dirs for notif, removed afterwards.
/// Not under /tmp: notif schedules nothing from a place others can write in (doc/security.md).
final class Sandbox {
    let path: String
    init() {
        path = Self.base + "/" + UUID().uuidString.prefix(8).lowercased()
        try! FileManager.default.createDirectory(atPath: path + "/home", withIntermediateDirectories: true)
        chmod(path, 0o755)
    }

    /// Where sandboxes go: root's /srv/notif-e2e (throwaway users can reach it; a sandbox's path is
    /// no longer than one in /tmp was, as crontab lines holding it several times must stay under
    /// cron's limit), else ~/.cache/notif-e2e. The user's (or root's), writable by nobody else.
    static let base: String = {
        let base = getuid() == 0 ? "/srv/notif-e2e" : NSHomeDirectory() + "/.cache/notif-e2e"
        try! FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
        chmod(base, 0o755)
        return base
    }()
    deinit {
        // A reminder's waiter started here (waiting for a service, or for a button) goes first.
        for pid in Waiters.find(DetachedActionWaiterName.command, home: path + "/home") { kill(pid, SIGKILL) }
        try? FileManager.default.removeItem(atPath: path)
    }

    var configDir: String { path + "/home/.config/notif" }
    var stateDir: String { path + "/home/.local/state/notif" }
    var settingsPath: String { configDir + "/settings.json" }
    /// The tag of this sandbox's configuration in entry names (`notif-tips-and-updates-TAG.timer`).
    var tag: String { ConfigurationID(settingsPath: settingsPath, isDefault: false).tag }
    /// The built-in schedule's Tips & Updates entry.
    var embeddedEntry: String { stateDir + "/embedded/tips-and-updates." + tag }

    /// A clean environment: nothing of the test runner's leaks in.
    /// The built-in scheduler unless `extra` says otherwise (`NOTIF_SCHEDULER: ""` detects):
    /// these runs are root's, and a detected cron would be root's real crontab.
    func environment(_ extra: [String: String] = [:]) -> [String: String] {
        var env = ["HOME": path + "/home", "PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8", "TZ": "Europe/Berlin",
                   "NOTIF_SCHEDULER": "embedded"]
        for (k, v) in extra { env[k] = v }
        return env
    }

    /// `notif daemon --install-autostart` here: `notif daemon` starts at each desktop login, so
    /// built-in entries wait for it (status gives their time) instead of never firing.
    func daemonStartsAtLogin() throws {
        let installed = try notif(["daemon", "--install-autostart"])
        guard installed.status == 0 else { throw E2EFailure("notif daemon --install-autostart: \(installed)") }
    }

    /// Runs the built notif with this sandbox's environment.
    func notif(_ args: [String], _ extra: [String: String] = [:], input: String? = nil) throws -> RunResult {
        try run([NotifBinary.path] + args, environment: environment(extra), input: input)
    }

    func write(_ text: String, to path: String) throws {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    func read(_ path: String) -> String? {
        FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) }
    }

    func files(in dir: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).sorted()
    }
}
