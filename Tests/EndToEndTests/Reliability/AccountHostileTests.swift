import Foundation
import TestSupport
import Testing

/// A server answer notif must refuse.
struct HostileAnswer: Sendable, CustomTestStringConvertible {
    let name: String
    /// The server's script (JSON-compatible values only).
    let script: @Sendable (_ otherServer: String) -> [String: any Sendable]
    /// Words the refusal must contain.
    let message: String
    /// Slow: the cached-copy half runs only in a soak.
    var slow = false
    /// Only in a soak.
    var soakOnly = false

    var testDescription: String { name }

    static var all: [HostileAnswer] { every.filter { !$0.soakOnly || Soak.isOn } }

    static let every: [HostileAnswer] = [
        // First: the slow one starts early and waits without holding a test lane.
        HostileAnswer(name: "bytes trickling past the time limit", script: { _ in ["historyDrip": 40] }, message: "did not answer within 15 s", slow: true),
        HostileAnswer(name: "bytes that are not HTTP", script: { _ in ["raw": "\u{0}\u{FF}SSH-2.0-OpenSSH_9.2\r\n\r\n"] }, message: "curl failed"),
        HostileAnswer(name: "an HTML page", script: { _ in ["historyRaw": "<html><body>Welcome to nginx!</body></html>"] }, message: "not valid JSON"),
        HostileAnswer(name: "JSON of the wrong shape", script: { _ in ["historyRaw": #"{"notifications": 5}"#] }, message: "not a list of notifications"),
        HostileAnswer(name: "items without ids", script: { _ in ["historyRaw": #"[{"title": "no id"}]"#] }, message: "has no id"),
        HostileAnswer(name: "escape sequences and NUL in JSON", script: { _ in ["historyRaw": "[{\"id\": \"1\", \"title\": \"\u{1B}]0;x\u{7}\u{0}\"}]"] }, message: "not valid JSON"),
        HostileAnswer(name: "2 MB with a length", script: { _ in ["historyPadding": 2 << 20] }, message: "larger than 1048576 bytes"),
        HostileAnswer(name: "5 MB streamed without a length", script: { _ in ["historyStream": 5 << 20] }, message: "larger than 1048576 bytes"),
        HostileAnswer(name: "40 MB streamed without a length", script: { _ in ["historyStream": 40 << 20] }, message: "larger than 1048576 bytes", soakOnly: true),
        HostileAnswer(name: "302 to another host", script: { other in ["redirect": ["status": 302, "location": other + "/steal"] as [String: any Sendable]] }, message: "redirect"),
        HostileAnswer(name: "307 to another host", script: { other in ["redirect": ["status": 307, "location": other + "/api/v1/app/notifications"] as [String: any Sendable]] }, message: "redirect"),
    ]
}

/// A server answering garbage, huge bodies, slow drips or redirects to another host: the
/// history is refused with a message and exit 1, nothing is cached as good, the other host
/// never hears from notif, and an earlier good copy is shown (marked) instead, unchanged.
@Suite struct ReliabilityServerTests {
    let token = "tok-" + UUID().uuidString.prefix(12)
    /// Never the machine's crontab: these sandboxes run as root.
    let env = ["NOTIF_SCHEDULER": "embedded"]

    @Test(.hangGuard, arguments: HostileAnswer.all)
    func hostileHistoryAnswersAreRefused(_ hostile: HostileAnswer) async throws {
        let sandbox = Sandbox()
        let server = try AccountServer()
        let other = try AccountServer()
        let login = try sandbox.notif(["account", "login", "--server", server.url], env, input: token + "\n")
        #expect(login.status == 0, "\(login)")
        let cache = sandbox.stateDir + "/history-cache.json"

        try server.setScript(hostile.script(other.url))
        let (refused, took) = try await sandbox.notifTimed(["history"], env)
        #expect(refused.status == 1, "\(hostile.name): \(refused)")
        #expect(refused.stderr.contains(hostile.message), "\(hostile.name): \(visible(refused.stderr))")
        #expect(!refused.stderr.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0 }, "\(hostile.name)")
        #expect(!FileManager.default.fileExists(atPath: cache), "nothing cached as good: \(hostile.name)")
        if hostile.slow { #expect(took > 14 && took < 22, "the drip is cut at curl's 15 s limit: \(took) s") }
        #expect(other.requests().isEmpty, "the other host got nothing: \(other.requests())")
        if !hostile.slow {
            let json = try sandbox.notif(["history", "--json"], env)
            #expect(json.status == 1 && json.stdout.isEmpty, "\(json)")
        }

        // With a good copy from before: that copy, marked, and the file left as it was.
        guard !hostile.slow || Soak.isOn else { return }
        try server.setScript(["history": ["status": 200, "body": [["id": "9", "title": "Good one", "body": "", "sentAt": "2026-11-29T09:00:00Z"]]]])
        #expect(try sandbox.notif(["history"], env).status == 0)
        let good = try #require(fileBytes(cache))
        try server.setScript(hostile.script(other.url))
        let cached = try sandbox.notif(["history"], env)
        #expect(cached.status == 0 && cached.stdout.contains("Good one") && cached.stderr.contains("showing the copy from"), "\(hostile.name): \(cached)")
        #expect(fileBytes(cache) == good, "\(hostile.name)")
        #expect(other.requests().isEmpty)
    }

    /// Random bytes and damaged JSON as answers: notif never crashes, prints no control
    /// characters, and the good copy is only ever replaced by an answer it accepted.
    @Test(.hangGuard)
    func randomGarbageNeverReplacesTheGoodCopy() throws {
        let seed = Soak.seed()
        var random = SeededRandom(seed: seed)
        let sandbox = Sandbox()
        let good = #"[{"id": "1", "title": "Good", "body": "kept", "sentAt": "2026-11-29T09:00:00Z"}, {"id": 2, "title": "Two"}]"#
        let server = try AccountServer(script: ["historyRaw": good])
        #expect(try sandbox.notif(["account", "login", "--server", server.url], env, input: token + "\n").status == 0)
        #expect(try sandbox.notif(["history"], env).status == 0)
        let cache = sandbox.stateDir + "/history-cache.json"
        var outcomes: [String: Int] = [:]
        let runs = Soak.count(short: 12, long: 400)
        for run in 0..<runs {
            let script: [String: Any]
            var bytes = Array(good.utf8)
            switch Int.random(in: 0..<3, using: &random) {
            case 0:
                let raw = (0..<Int.random(in: 1...300, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
                script = ["raw": String(raw.map { Character(Unicode.Scalar($0)) })]
            default:
                for _ in 0..<Int.random(in: 1...3, using: &random) {
                    let at = Int.random(in: 0..<bytes.count, using: &random)
                    switch Int.random(in: 0..<3, using: &random) {
                    case 0: bytes[at] = UInt8.random(in: 0...127, using: &random)
                    case 1: bytes.remove(at: at)
                    default: bytes.insert(UInt8.random(in: 0...127, using: &random), at: at)
                    }
                }
                script = ["historyRaw": String(decoding: bytes, as: UTF8.self)]
            }
            try server.setScript(script)
            let before = fileBytes(cache)
            let result = try sandbox.notif(["history"], env)
            let what = "seed \(seed) run \(run) \(visible("\(script)")): \(result)"
            #expect(result.status == 0 && !endedBySignal(result), "\(what)")
            #expect(!(result.stdout + result.stderr).unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" || $0.value == 0x7F }, "\(what)")
            if result.stderr.contains("showing the copy from") {
                #expect(fileBytes(cache) == before, "a refused answer replaced the good copy: \(what)")
                outcomes["refused, copy shown", default: 0] += 1
            } else {
                outcomes["accepted", default: 0] += 1
            }
        }
        #expect(outcomes["refused, copy shown", default: 0] > 0, "no random answer was refused (seed \(seed)): \(outcomes)")
        print("[reliability] random server answers: \(runs) runs, seed \(seed): \(outcomes.sorted { $0.key < $1.key })")
    }

    /// At login the same answers leave the registration pending (never "registered"), and a
    /// redirect never takes the token to the other host.
    @Test func hostileAnswersAtLoginNeverCountAsRegistered() throws {
        for (name, script) in [("not HTTP", ["raw": "garbage\r\n\r\n"]),
                               ("307 to another host", ["redirect": ["status": 307, "location": "OTHER/api/v1/app/device-tokens"]])] as [(String, [String: Any])] {
            let sandbox = Sandbox()
            let other = try AccountServer()
            var script = script
            if var redirect = script["redirect"] as? [String: Any] {
                redirect["location"] = (redirect["location"] as! String).replacingOccurrences(of: "OTHER", with: other.url)
                script["redirect"] = redirect
            }
            let server = try AccountServer(script: script)
            let login = try sandbox.notif(["account", "login", "--server", server.url], env, input: token + "\n")
            #expect(login.status == 0 && login.stderr.contains("could not register this device yet"), "\(name): \(login)")
            let status = try sandbox.notif(["account", "status"], env)
            #expect(status.stdout.contains("Device token: pending") && !status.stdout.contains("Device token: registered"), "\(name): \(status)")
            #expect(other.requests().isEmpty, "\(name): \(other.requests())")
            #expect(sandbox.read(sandbox.stateDir + "/registration.json")?.contains("\"state\": \"pending\"") == true, "\(name)")
        }
    }
}

/// The auth token is never in a process's arguments, and nowhere but its own 0600 file.
@Suite struct ReliabilitySecretTests {
    /// Quotes, backslashes and `$(...)` too: curl's config file on stdin must carry it exactly.
    let token = #"t0k "q" \b\ $(id) 'x' ; "# + UUID().uuidString.prefix(8)
    let env = ["NOTIF_SCHEDULER": "embedded"]

    /// pids of processes whose parent is `parent`.
    func children(of parent: pid_t) -> [pid_t] {
        let text = (try? String(contentsOfFile: "/proc/\(parent)/task/\(parent)/children", encoding: .utf8)) ?? ""
        return text.split(separator: " ").compactMap { pid_t($0) }
    }

    func cmdline(_ pid: pid_t) -> [String] {
        let data = (try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/cmdline"))) ?? Data()
        return data.split(separator: 0, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }.filter { !$0.isEmpty }
    }

    /// Every process's arguments on the machine, while the request is held open.
    func everyCommandLine() -> [String] {
        let pids = ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap { pid_t($0) }
        return pids.map { cmdline($0).joined(separator: " ") }
    }

    @Test(.hangGuard)
    func theTokenIsNeverInArgvWhileCurlRuns() throws {
        let sandbox = Sandbox()
        let server = try AccountServer(script: ["hold": 20])
        var seenCurl = 0
        // Last, a login with the token in NOTIF_AUTH_TOKEN: curl must not inherit it.
        let runs: [([String], String?, [String: String])] = [
            (["account", "login", "--server", server.url], token + "\n", [:]), (["history"], nil, [:]), (["account", "logout"], nil, [:]),
            (["account", "login", "--server", server.url], nil, ["NOTIF_AUTH_TOKEN": token]),
        ]
        for (args, input, extra) in runs {
            try? FileManager.default.removeItem(atPath: server.directory + "/release")
            let before = server.requests().count
            let process = Process()
            process.executableURL = URL(fileURLWithPath: NotifBinary.path)
            process.arguments = args
            process.environment = sandbox.environment(env.merging(extra) { _, new in new })
            let stdin = Pipe()
            process.standardInput = stdin
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            try stdin.fileHandleForWriting.write(contentsOf: Data((input ?? "").utf8))
            try stdin.fileHandleForWriting.close()
            defer {
                if process.isRunning { kill(process.processIdentifier, SIGKILL) }
                process.waitUntilExit()
            }
            // The server has the request and holds it: curl is running now.
            #expect(waitUntil(15) { server.requests().count > before }, "\(args): no request arrived")
            let curls = children(of: process.processIdentifier).filter { cmdline($0).first == "curl" }
            #expect(curls.count == 1, "\(args): curl children \(curls)")
            for pid in curls {
                #expect(cmdline(pid) == ["curl", "-q", "--config", "-"], "\(args): \(cmdline(pid))")
                let environ = (try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/environ"))) ?? Data()
                #expect(environ.range(of: Data(token.utf8)) == nil, "\(args): token in curl's environment")
                seenCurl += 1
            }
            #expect(!everyCommandLine().contains { $0.contains(token) }, "\(args): the token is in some process's arguments")
            #expect(FileManager.default.createFile(atPath: server.directory + "/release", contents: Data()))
            #expect(waitUntil(15) { !process.isRunning }, "\(args) did not finish once released")
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "\(args)")
        }
        #expect(seenCurl == 4)
        let sent = server.requests().compactMap { ($0["headers"] as? [String: String])?["Authorization"] }
        #expect(sent.count == 4 && sent.allSatisfy { $0 == "Bearer " + token }, "the server got the token exactly: \(sent)")
    }

    @Test func theTokenIsOnlyInItsOwnFileWhateverHappens() throws {
        let sandbox = Sandbox()
        let server = try AccountServer(script: ["register": [500, 201],
                                                "history": ["status": 200, "body": [["id": "1", "title": "x", "body": "", "sentAt": "2026"]]]])
        var said = ""
        func notif(_ args: [String], input: String? = nil, _ extra: [String: String] = [:]) throws {
            let result = try sandbox.notif(args, env.merging(extra) { _, new in new }, input: input)
            #expect(!endedBySignal(result))
            said += result.stdout + result.stderr
        }
        try notif(["account", "login", "--server", server.url], input: token + "\n")
        for args in [["status"], ["status", "--json"], ["account", "status"], ["apply"], ["history"], ["history", "--json"], ["test"]] {
            try notif(args)
        }
        // Failures too: refusals, garbage, an unreachable server, the cached copy.
        for script in [["history": ["status": 401, "body": []]], ["raw": "junk"], ["historyRaw": "{"]] as [[String: Any]] {
            try server.setScript(script)
            try notif(["history"])
            try notif(["apply"])
        }
        server.stop()
        try notif(["history"])
        try notif(["status", "--json"])
        #expect(!said.contains(token), "the token appeared in output")
        let store = sandbox.stateDir + "/auth-token"
        #expect(permissions(store) == 0o600)
        #expect(sandbox.read(store) == token + "\n")
        for path in walk(sandbox.path) where path != store && !isDirectory(path) {
            #expect(fileBytes(path)?.range(of: Data(token.utf8)) == nil, "token found in \(path)")
        }
        let logout = try sandbox.notif(["account", "logout"], env)
        #expect(logout.status == 0, "\(logout)")
        #expect(!FileManager.default.fileExists(atPath: store), "logout forgets it")
    }
}
