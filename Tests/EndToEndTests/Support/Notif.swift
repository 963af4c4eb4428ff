import Foundation

/// The notif binary `swift build` made, next to this test bundle.
enum NotifBinary {
    static let path: String = {
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var dir = bundle.deletingLastPathComponent()
        if dir.lastPathComponent.hasSuffix(".xctest") { dir = dir.deletingLastPathComponent() }
        for candidate in [dir, bundle.deletingLastPathComponent()] {
            let path = candidate.appendingPathComponent("notif").path
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        fatalError("notif binary not found near \(bundle.path); run `swift build` first")
    }()

    /// The static release build (`make test` builds it before the tests), which libfaketime
    /// cannot move: tests that need it reach 09:00 by shifting the zone instead.
    static func release() throws -> String {
        let triple = URL(fileURLWithPath: path).deletingLastPathComponent().deletingLastPathComponent()
        let release = triple.appendingPathComponent("release/notif").path
        guard let built = try? FileManager.default.attributesOfItem(atPath: release)[.modificationDate] as? Date else {
            throw E2EFailure("no release build at \(release): run `make test`, or `make release` before `swift test`")
        }
        let debug = (try? FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date) ?? built
        guard built.addingTimeInterval(1) >= debug else {
            throw E2EFailure("the release build at \(release) is older than the debug build: run `make release` first")
        }
        return release
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
final class Sandbox {
    let path: String
    init() {
        path = "/tmp/notif-e2e-" + UUID().uuidString.prefix(8).lowercased()
        try! FileManager.default.createDirectory(atPath: path + "/home", withIntermediateDirectories: true)
    }
    deinit { try? FileManager.default.removeItem(atPath: path) }

    var configDir: String { path + "/home/.config/notif" }
    var stateDir: String { path + "/home/.local/state/notif" }
    var settingsPath: String { configDir + "/settings.json" }

    /// A clean environment: nothing of the test runner's leaks in.
    /// The built-in scheduler unless `extra` says otherwise (`NOTIF_SCHEDULER: ""` detects):
    /// these runs are root's, and a detected cron would be root's real crontab.
    func environment(_ extra: [String: String] = [:]) -> [String: String] {
        var env = ["HOME": path + "/home", "PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8", "TZ": "Europe/Berlin",
                   "NOTIF_SCHEDULER": "embedded"]
        for (k, v) in extra { env[k] = v }
        return env
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
