import Foundation
import Testing
import TestSupport

/// Attacks by another local user and by privileged runs, against the real binary with throwaway
/// users (doc/security.md). Each reproduces an attack that worked on an earlier build.
@Suite(.serialized) struct SecurityTests {
    /// A Unix socket some user listens on (python3), like a session bus another user bound.
    final class Listener {
        let process: Process
        init(as user: TestUser?, path: String, abstract: Bool = false) throws {
            process = Process()
            // Each connection accepted is noted (a byte in PATH.accepted) and closed at once.
            let script = "import socket,sys,time\ns=socket.socket(socket.AF_UNIX)\n"
                + "s.bind(('\\0' if sys.argv[2]=='1' else '')+sys.argv[1])\ns.listen(8)\n"
                + "open(sys.argv[3],'w').close()\n"
                + "while True:\n  c, _ = s.accept()\n  open(sys.argv[3][:-6] + '.accepted', 'a').write('x')\n  c.close()\n"
            let ready = path + ".ready"
            unlink(ready)
            let argv = ["/usr/bin/python3", "-c", script, path, abstract ? "1" : "0", ready]
            if let user {
                process.executableURL = URL(fileURLWithPath: "/usr/sbin/runuser")
                process.arguments = ["-u", user.name, "--"] + argv
            } else {
                process.executableURL = URL(fileURLWithPath: argv[0])
                process.arguments = Array(argv.dropFirst())
            }
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            guard waitUntil(10, { FileManager.default.fileExists(atPath: ready) }) else { throw E2EFailure("listener on \(path) did not start") }
        }
        /// Connections it has accepted.
        var accepted: Int { FileManager.default.contents(atPath: String(ready.dropLast(6)) + ".accepted")?.count ?? 0 }
        private var ready: String { process.arguments?.last(where: { $0.hasSuffix(".ready") }) ?? "none" }
        deinit {
            _ = try? run(["pkill", "-KILL", "-f", process.arguments?.last(where: { $0.hasSuffix(".ready") }) ?? "none"],
                         environment: ["PATH": "/usr/bin:/bin"])
            process.waitUntilExit()
        }
    }

    static func lastRecord(_ path: String) -> [String: Any]? {
        let lines = (FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) } ?? "").split(separator: "\n")
        return lines.last.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    /// 1. Root with a user's HOME (sudo -E): refused before any file is touched, naming the owner.
    /// The user's links into root's files and a dangling link into root's directory stay harmless.
    @Test(.enabled(if: isRoot), .hangGuard)
    func rootWithAUsersHomeActsOnNothing() throws {
        let a = try TestUser.make("notif-trsec-a")
        defer { deleteUser(a) }
        let sandbox = Sandbox()
        let binary = try NotifBinary.publicCopy(in: sandbox)
        let rootFile = sandbox.path + "/root-owned.conf"
        try Data("root's own text\n".utf8).write(to: URL(fileURLWithPath: rootFile))
        chmod(rootFile, 0o644)
        _ = try a.run(["mkdir", "-p", a.home + "/.config/notif", a.stateDir])
        _ = try a.run(["ln", "-s", rootFile, a.settingsPath])
        // The built-in scheduler: a run that got through would write entries under the user's
        // HOME (found below), never root's real crontab.
        let rootEnv = ["HOME": a.home, "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "NOTIF_SCHEDULER": "embedded"]
        for args in [["status"], ["set", "tips-and-updates", "on"], ["permission", "grant"], ["apply"], ["deliver", "tips-and-updates"]] {
            let result = try run([binary] + args, environment: rootEnv)
            #expect(result.status == 1, "\(args): \(result)")
            #expect(result.stderr.contains("belongs to \(a.name)") && result.stderr.contains("sudo -u \(a.name)"), "\(args): \(result)")
        }
        #expect(String(decoding: fileBytes(rootFile) ?? Data(), as: UTF8.self) == "root's own text\n", "root's file was changed")
        #expect((try? FileManager.default.contentsOfDirectory(atPath: sandbox.path).filter { $0.contains("settings.json.") }) == [])
        #expect(try a.run(["find", a.home, "-user", "root"]).stdout.isEmpty, "root left files in the user's home")

        // The user's own run does not follow a link into a file that is not theirs (read-only
        // status renamed it aside on an earlier build), nor a dangling one into root's directory.
        let status = try a.run([binary, "status"], ["NOTIF_SCHEDULER": "embedded"])
        #expect(status.status == 1 && status.stderr.contains("notif follows a link only to your own files"), "\(status)")
        #expect(String(decoding: fileBytes(rootFile) ?? Data(), as: UTF8.self) == "root's own text\n")
        _ = try a.run(["ln", "-sfn", sandbox.path + "/created-by-notif.json", a.settingsPath])
        chmod(sandbox.path, 0o777)
        defer { chmod(sandbox.path, 0o755) }
        let set = try a.run([binary, "set", "promotions", "on"], ["NOTIF_SCHEDULER": "embedded"])
        #expect(set.status == 1 && !FileManager.default.fileExists(atPath: sandbox.path + "/created-by-notif.json"), "\(set)")
    }

    /// 1 and 4. The delivery log and state files are never followed as links: a log linked to the
    /// user's shell start-up file does not get text appended; a HOME that another user made
    /// (a carried HOME under /tmp that was gone and recreated) is refused by the user's entry.
    @Test(.enabled(if: isRoot), .hangGuard)
    func linksAndAForeignHomeAreNeverWrittenThrough() throws {
        let a = try TestUser.make("notif-trsec-b")
        let b = try TestUser.make("notif-trsec-c")
        defer { deleteUser(a); deleteUser(b) }
        let sandbox = Sandbox()
        let binary = try NotifBinary.publicCopy(in: sandbox)
        let fakes = try FakeTools(in: sandbox)
        let env = ["NOTIF_SCHEDULER": "embedded", "PATH": fakes.path, "DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent"]
        #expect(try a.run([binary, "permission", "grant"], env).status == 0)
        #expect(try a.run([binary, "set", "tips-and-updates", "on"], env).status == 0)
        let rc = a.home + "/.profile-notif-test"
        _ = try a.run(["sh", "-c", "printf 'export A=1\\n' > \"$0\"", rc])
        _ = try a.run(["ln", "-sfn", rc, a.stateDir + "/deliveries.jsonl"])
        let deliver = try a.run([binary, "test"], env)
        #expect(!(a.read(rc) ?? "").contains("{"), "the log was appended through a link: \(deliver)")
        #expect(a.read(rc) == "export A=1\n")
        #expect(deliver.stdout.contains("symbolic link") || deliver.stderr.contains("symbolic link"), "\(deliver)")

        // A HOME under a world-writable directory, made again by another user after it was gone.
        let carried = "/tmp/notif-e2e-carried-" + UUID().uuidString.prefix(8).lowercased()
        defer { try? FileManager.default.removeItem(atPath: carried) }
        _ = try b.run(["mkdir", "-p", carried + "/.config/notif", carried + "/.local/state/notif"])
        _ = try b.run(["sh", "-c", "printf '{\"version\":1,\"tipsAndUpdates\":true,\"permission\":\"granted\"}\\n' > \"$0\"",
                       carried + "/.config/notif/settings.json"])
        _ = try b.run(["ln", "-s", rc, carried + "/.local/state/notif/deliveries.jsonl"])
        _ = try b.run(["chmod", "-R", "a+rwx", carried])
        let job = try a.run(["/usr/bin/env", "HOME=" + carried, binary, "deliver", "tips-and-updates"], ["PATH": fakes.path])
        #expect(job.status == 1 && job.stderr.contains("belongs to \(b.name)"), "\(job)")
        #expect(a.read(rc) == "export A=1\n", "the other user's HOME got text into the user's file")
    }

    /// 2. A recorded session bus whose session has ended, bound again by another user: never
    /// used. The user's own bus at /run/user/UID/bus is tried before any recorded one.
    @Test(.enabled(if: isRoot), .hangGuard)
    func aStaleRecordedBusTakenByAnotherUserGetsNothing() throws {
        let a = try TestUser.make("notif-trsec-d")
        let b = try TestUser.make("notif-trsec-e")
        defer { deleteUser(a); deleteUser(b) }
        let sandbox = Sandbox()
        let binary = try NotifBinary.publicCopy(in: sandbox)
        let cronLike = ["NOTIF_SCHEDULER": "embedded"]
        #expect(try a.run([binary, "permission", "grant"], cronLike).status == 0)
        #expect(try a.run([binary, "set", "tips-and-updates", "on"], cronLike).status == 0)

        // A's session recorded a bus in /tmp; the session ended; B binds the same path.
        let stale = "/tmp/notif-e2e-bus-" + UUID().uuidString.prefix(8).lowercased()
        defer { unlink(stale); unlink(stale + ".ready"); unlink(stale + ".accepted") }
        try a.run(["sh", "-c", "printf 'DBUS_SESSION_BUS_ADDRESS=unix:path=%s,guid=1\\n' \"$0\" > \"$1\"", stale,
                   a.stateDir + "/session.env"]).expectSuccess()
        var listener: Listener? = try Listener(as: b, path: stale)
        let taken = try a.run([binary, "test"], cronLike)
        #expect(taken.status == 1 && !taken.stderr.contains("the recorded session"), "\(taken)")
        #expect(listener?.accepted == 0, "notif connected to another user's bus")

        // The same path served by A itself: tried (the check is about who serves it; this
        // listener is no D-Bus, so the try fails, and says where it went).
        listener = nil
        unlink(stale)
        listener = try Listener(as: a, path: stale)
        let own = try a.run([binary, "test"], cronLike)
        #expect(own.status == 1 && own.stderr.contains("the recorded session: "), "\(own)")
        #expect((listener?.accepted ?? 0) >= 1, "A's own recorded bus was not tried")

        // A's own user bus comes before any recorded one.
        let runtime = "/run/user/\(a.uid)"
        _ = try run(["install", "-d", "-m", "700", "-o", a.name, runtime], environment: ["PATH": "/usr/bin:/bin"])
        defer { _ = try? run(["rm", "-rf", runtime], environment: ["PATH": "/usr/bin:/bin"]) }
        let userBus = try Listener(as: a, path: runtime + "/bus")
        let viaUserBus = try a.run([binary, "test"], cronLike)
        let said = viaUserBus.stderr
        #expect(viaUserBus.status == 1 && said.contains("the user bus: "), "\(viaUserBus)")
        #expect((said.range(of: "the user bus: ")?.lowerBound ?? said.endIndex) < (said.range(of: "the recorded session: ")?.lowerBound ?? said.startIndex), "\(said)")
        #expect(userBus.accepted >= 1, "the user bus was not tried")
        withExtendedLifetime(userBus) {}
        withExtendedLifetime(listener) {}
    }

    /// 3. Escape sequences from files and servers never reach the terminal; JSON escapes C1
    /// controls and bidirectional overrides.
    @Test(.hangGuard)
    func escapeSequencesAreShownNotSent() throws {
        let sandbox = Sandbox()
        #expect(try sandbox.notif(["permission", "grant"]).status == 0)
        // A record as a hostile server id or a notification service's error text would leave it:
        // OSC 52 (clipboard), a clear screen, a window title, a C1 CSI, a right-to-left override.
        let nasty = "\\u001b]52;c;ZXZpbA==\\u0007\\u001b[2J\\u001b]0;owned\\u0007\\u009b31m\\u202eevil"
        let record = "{\"time\":\"2026-11-30T09:00:00+01:00\",\"day\":\"2026-11-30\",\"reminder\":\"server:\(nasty)\","
            + "\"kind\":\"push\",\"outcome\":\"failed\",\"detail\":\"notify-send: \(nasty)\"}\n"
        try sandbox.write(record, to: sandbox.stateDir + "/deliveries.jsonl")
        for args in [["status"], ["history"], ["history", "--json"], ["status", "--json"]] {
            let result = try sandbox.notif(args)
            let bytes = Array((result.stdout + result.stderr).utf8)
            #expect(!bytes.contains(0x1B) && !bytes.contains(0x07), "\(args) sent a control character: \(result)")
            #expect(!(result.stdout + result.stderr).unicodeScalars.contains { $0.value == 0x9B || $0.value == 0x202E }, "\(args): \(result)")
        }
        let json = try sandbox.notif(["status", "--json"]).stdout
        #expect(json.contains("\\u009b") && json.contains("\\u202e"), "\(json)")
    }
}

extension SecurityTests {
    /// Found by a hostile-user trial: an auth token that is not printable ASCII (bytes that are
    /// not UTF-8 became U+FFFD and were sent changed) is refused before anything is sent.
    @Test(.hangGuard) func aTokenThatIsNotPrintableASCIIIsRefused() throws {
        let sandbox = Sandbox()
        for token in ["caf\u{E9}", "ab\u{FFFD}c", "a\u{FF}b"] {
            let login = try sandbox.notif(["account", "login", "--server", "http://127.0.0.1:9"], input: token + "\n")
            #expect(login.status == 1 && login.stderr.contains("printable ASCII"), "\(login)")
        }
        #expect(sandbox.files(in: sandbox.stateDir).filter { $0.contains("auth") }.isEmpty)
    }
}

extension RunResult {
    func expectSuccess() throws {
        guard status == 0 else { throw E2EFailure("\(self)") }
    }
}
