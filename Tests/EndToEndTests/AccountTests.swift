import Foundation
import Testing
import TestSupport

/// Account projects against a real HTTP server on loopback that records every request.
@Suite struct AccountTests {
    let token = "tok-\(UUID().uuidString.prefix(12))"

    func login(_ sandbox: Sandbox, _ server: AccountServer, _ extra: [String: String] = [:]) throws -> RunResult {
        try sandbox.notif(["account", "login", "--server", server.url], extra, input: token + "\n")
    }

    func deviceToken(_ sandbox: Sandbox) -> String {
        (sandbox.read(sandbox.stateDir + "/device-token") ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func loginRegistersTheDeviceTokenExactlyOnce() throws {
        let sandbox = Sandbox()
        let server = try AccountServer()
        let result = try login(sandbox, server)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("Logged in to \(server.url)"))
        #expect(result.stdout.contains("Device token: registered"))
        let requests = server.requests()
        #expect(requests.count == 1)
        let request = try #require(requests.first)
        #expect(request["method"] as? String == "POST")
        #expect(request["path"] as? String == "/api/v1/app/device-tokens")
        let headers = request["headers"] as? [String: String] ?? [:]
        #expect(headers["Authorization"] == "Bearer \(token)")
        #expect(headers["Content-Type"] == "application/json")
        let body = try JSONSerialization.jsonObject(with: Data((request["body"] as? String ?? "").utf8)) as? [String: String]
        #expect(body == ["token": deviceToken(sandbox), "platform": "linux", "appVersion": "0.2.0"])
        #expect(deviceToken(sandbox).count >= 32)
        // The same pair is never registered twice.
        for args in [["apply"], ["status"], ["account", "status"], ["apply"]] { _ = try sandbox.notif(args) }
        #expect(server.requests().filter { $0["method"] as? String == "POST" }.count == 1)
        let status = try sandbox.notif(["status", "--json"])
        #expect(status.stdout.contains("\"state\": \"registered\""), "\(status)")
    }

    @Test func aFailedRegistrationIsPendingAndRetriedByApply() throws {
        let sandbox = Sandbox()
        let server = try AccountServer(script: ["register": [500, 201]])
        let result = try login(sandbox, server)
        #expect(result.status == 0)
        #expect(result.stdout.contains("Device token: pending: the server could not register this device (HTTP 500)"), "\(result)")
        let status = try sandbox.notif(["account", "status"])
        #expect(status.stdout.contains("pending"))
        let apply = try sandbox.notif(["apply"])
        #expect(apply.stdout.contains("Device token: registered"), "\(apply)")
        #expect(server.requests().filter { $0["method"] as? String == "POST" }.count == 2)
    }

    /// The page and `notif daemon` retry a pending registration when they start.
    @Test(arguments: ["page", "daemon"])
    func aPendingRegistrationIsRetriedWhenThePageOrTheDaemonStarts(starter: String) throws {
        let sandbox = Sandbox()
        let server = try AccountServer(script: ["register": [500, 201]])
        _ = try login(sandbox, server)
        #expect(try sandbox.notif(["account", "status"]).stdout.contains("pending"))
        let posts = { server.requests().filter { $0["method"] as? String == "POST" }.count }
        let env = ["NOTIF_SCHEDULER": "embedded"]
        var pane: TmuxPane?
        var daemon: DaemonProcess?
        if starter == "page" {
            pane = try TmuxPane(notifCommand(env: sandbox.environment(env.merging(["TERM": "tmux-256color"]) { a, _ in a })))
        } else {
            daemon = try DaemonProcess([NotifBinary.path, "daemon", "--poll-interval", "10"], environment: sandbox.environment(env),
                                       outputIn: sandbox.path)
        }
        #expect(waitUntil(15) { posts() == 2 }, "\(starter) did not retry the registration: \(posts()) POSTs")
        #expect(waitUntil(5) { (try? sandbox.notif(["account", "status"]).stdout.contains("Device token: registered")) == true })
        if let pane {
            try pane.send("q")
            #expect(try pane.finished().status == 0)
        }
        if let daemon {
            #expect(daemon.waitUntilRunning(), "\(daemon.output)")
            daemon.send(SIGTERM)
            #expect(daemon.waitForExit() == 0, "\(daemon.output)")
        }
        #expect(posts() == 2)
    }

    @Test func aNewAuthTokenRegistersAgain() throws {
        let sandbox = Sandbox()
        let server = try AccountServer()
        _ = try login(sandbox, server)
        _ = try sandbox.notif(["account", "login", "--server", server.url], input: "another-token\n")
        let posts = server.requests().filter { $0["method"] as? String == "POST" }
        #expect(posts.count == 2)
        #expect((posts.last?["headers"] as? [String: String])?["Authorization"] == "Bearer another-token")
    }

    @Test func guestNeverCallsTheServer() throws {
        let sandbox = Sandbox()
        let server = try AccountServer()
        let env = ["NOTIF_AUTH_TOKEN": token]
        try sandbox.write("{\"account\": {\"server\": \"\(server.url)\"}, \"onboardingCompleted\": true}", to: sandbox.settingsPath)
        for args in [["set", "tips-and-updates", "on"], ["permission", "grant"], ["apply"], ["status"], ["status", "--json"], ["history"], ["test"], ["account", "status"]] {
            _ = try sandbox.notif(args, env)
        }
        // The daemon's first wake (where an Account project polls) runs before it looks at a
        // stop signal, so by the time it has exited it would have called the server.
        let daemon = try DaemonProcess([NotifBinary.path, "daemon", "--poll-interval", "10"],
                                       environment: sandbox.environment(env.merging(["NOTIF_SCHEDULER": "embedded"]) { a, _ in a }),
                                       outputIn: sandbox.path)
        #expect(daemon.waitUntilRunning(), "\(daemon.output)")
        daemon.send(SIGTERM)
        #expect(daemon.waitForExit() == 0, "\(daemon.output)")
        // The page retries a pending registration before its first apply; the scheduler's name
        // on screen means that point has passed.
        let pane = try TmuxPane(notifCommand(env: sandbox.environment(env.merging(["TERM": "tmux-256color", "NOTIF_SCHEDULER": "embedded"]) { a, _ in a })))
        try pane.waitFor("Scheduler: embedded")
        try pane.send("q")
        #expect(try pane.finished().status == 0)
        #expect(server.requests().isEmpty)
    }

    @Test func noAuthTokenNoRequest() throws {
        let sandbox = Sandbox()
        let server = try AccountServer()
        let result = try sandbox.notif(["account", "login", "--server", server.url], input: "")
        #expect(result.status == 2 && result.stderr.contains("no auth token"))
        #expect(server.requests().isEmpty)
        // Account mode with the token file gone: apply registers nothing.
        _ = try login(sandbox, server)
        try FileManager.default.removeItem(atPath: sandbox.stateDir + "/auth-token")
        let before = server.requests().count
        _ = try sandbox.notif(["apply"])
        #expect(server.requests().count == before)
    }

    @Test func historyFromTheServerThenTheCachedCopyThen401() throws {
        let sandbox = Sandbox()
        let server = try AccountServer(script: ["history": ["status": 200, "body": [
            ["id": 7, "title": "Your table is ready", "body": "Queue 12", "sentAt": "2026-11-29T18:00:00Z", "extra": true],
            ["id": "a1", "title": "Weekend offer", "body": "", "sentAt": "2026-11-28T10:00:00Z"],
        ]]])
        _ = try login(sandbox, server)
        let history = try sandbox.notif(["history"])
        #expect(history.status == 0, "\(history)")
        #expect(history.stdout.contains("2026-11-29T18:00:00Z  Your table is ready: Queue 12"))
        #expect(history.stdout.contains("Weekend offer"))
        let get = server.requests().last { $0["method"] as? String == "GET" }
        #expect(get?["path"] as? String == "/api/v1/app/notifications")
        #expect((get?["headers"] as? [String: String])?["Authorization"] == "Bearer \(token)")
        server.stop()
        let cached = try sandbox.notif(["history"])
        #expect(cached.status == 0)
        #expect(cached.stderr.contains("showing the copy from"), "\(cached)")
        #expect(cached.stdout.contains("Your table is ready"))
        let server401 = try AccountServer(script: ["history": ["status": 401, "body": []]])
        _ = try sandbox.notif(["account", "login", "--server", server401.url], input: token + "\n")
        let refused = try sandbox.notif(["history"])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("log in again"), "\(refused)")
    }

    @Test func oversizedAndRedirectedAnswersAreRefused() throws {
        let sandbox = Sandbox()
        let server = try AccountServer(script: ["historyPadding": 2 << 20])
        _ = try login(sandbox, server)
        let big = try sandbox.notif(["history"])
        #expect(big.status == 1 && big.stderr.contains("larger than"), "\(big)")
        try server.setScript(["historyRedirect": "http://example.org/steal"])
        let moved = try sandbox.notif(["history"])
        #expect(moved.status == 1 && moved.stderr.contains("redirect"), "\(moved)")
    }

    @Test func aRefusedTokenOrAnUnknownHostLogsNothingIn() throws {
        let sandbox = Sandbox()
        try sandbox.write("{\"onboardingCompleted\": true, \"tipsAndUpdates\": true}", to: sandbox.settingsPath)
        let before = sandbox.read(sandbox.settingsPath)
        let refusing = try AccountServer(script: ["register": [401]])
        for url in [refusing.url, "https://nonexistent.invalid"] {
            let result = try sandbox.notif(["account", "login", "--server", url], input: "bad-token\n")
            #expect(result.status == 1, "\(url): \(result)")
            #expect(result.stderr.contains("not logged in"), "\(result)")
            #expect(!result.stdout.contains("Logged in"))
            #expect(sandbox.read(sandbox.settingsPath) == before, "the mode did not change")
            #expect(!FileManager.default.fileExists(atPath: sandbox.stateDir + "/auth-token"))
        }
        #expect(try sandbox.notif(["account", "logout"]).stdout.contains("Not logged in"))
    }

    @Test func onlyHTTPSExceptLoopback() throws {
        let sandbox = Sandbox()
        for url in ["http://example.org", "ftp://x", "example.org", "https://user:pw@example.org", "https://x/?a=1"] {
            let result = try sandbox.notif(["account", "login", "--server", url], input: "t\n")
            #expect(result.status == 2, "\(url): \(result)")
            #expect(result.stderr.contains(url))
        }
        #expect(sandbox.read(sandbox.settingsPath) == nil, "nothing saved for a refused URL")
    }

    @Test func theAuthTokenIsOnlyInItsOwnFile() throws {
        let sandbox = Sandbox()
        let server = try AccountServer(script: ["register": [500]])
        var outputs = ""
        for args in [["account", "login", "--server", server.url], ["status"], ["status", "--json"], ["account", "status"], ["history"], ["apply"]] {
            let result = try sandbox.notif(args, input: token + "\n")
            outputs += result.stdout + result.stderr
        }
        #expect(!outputs.contains(token))
        let store = sandbox.stateDir + "/auth-token"
        let attributes = try FileManager.default.attributesOfItem(atPath: store)
        #expect(attributes[.posixPermissions] as? Int == 0o600)
        let files = FileManager.default.enumerator(atPath: sandbox.path)?.compactMap { $0 as? String } ?? []
        for file in files where !file.hasSuffix("auth-token") {
            let text = sandbox.read(sandbox.path + "/" + file) ?? ""
            #expect(!text.contains(token), "token found in \(file)")
        }
    }

    @Test func logoutUnregistersAndGoesBackToGuest() throws {
        let sandbox = Sandbox()
        let server = try AccountServer()
        _ = try login(sandbox, server)
        let device = deviceToken(sandbox)
        let result = try sandbox.notif(["account", "logout"])
        #expect(result.status == 0 && result.stdout.contains("Guest project again"), "\(result)")
        let delete = server.requests().last
        #expect(delete?["method"] as? String == "DELETE")
        #expect(delete?["path"] as? String == "/api/v1/app/device-tokens/\(device)")
        #expect(!FileManager.default.fileExists(atPath: sandbox.stateDir + "/auth-token"))
        #expect(sandbox.read(sandbox.settingsPath)?.contains("\"mode\": \"guest\"") == true)
    }
}

/// Account projects never keep a Guest reminder, on a real crontab.
@Suite(.enabled(if: isRoot, "needs root for a throwaway user"))
struct AccountSchedulingTests {
    @Test(arguments: ["cron", "systemd", "embedded"])
    func loginCancelsGuestRemindersAndLogoutRestoresExactlyOne(scheduler: String) throws {
        let user = try TestUser.make("notif-taccount-" + scheduler.prefix(3))
        let sandbox = Sandbox()
        let binary = try NotifBinary.publicCopy(in: sandbox)
        let server = try AccountServer()
        let env = ["NOTIF_SCHEDULER": scheduler]
        _ = try user.run([binary, "permission", "grant"], env)
        _ = try user.run([binary, "set", "tips-and-updates", "on"], env)
        #expect(try ReminderPlaces.of(user).holders == [scheduler])
        let login = try user.run([binary, "account", "login", "--server", server.url], env, input: "secret\n")
        #expect(login.status == 0, "\(login)")
        #expect(login.stdout.contains("Guest reminders cancelled: tips-and-updates"))
        #expect(try ReminderPlaces.of(user).holders.isEmpty)
        _ = try user.run([binary, "apply"], env)
        _ = try user.run([binary, "set", "tips-and-updates", "on"], env)
        #expect(try ReminderPlaces.of(user).holders.isEmpty, "Account never schedules Guest reminders")
        let logout = try user.run([binary, "account", "logout"], env)
        #expect(logout.status == 0, "\(logout)")
        #expect(try ReminderPlaces.of(user).holders == [scheduler])
        if scheduler == "cron" { #expect(try user.crontab().components(separatedBy: "deliver --quiet tips-and-updates").count == 2) }
        // No daemon runs for this user: logout says so as set does, not a next time (trial 39, D2).
        if scheduler == "embedded" { #expect(logout.stdout.contains("it cannot fire yet: built-in entries fire only while"), "\(logout)") }
    }
}

/// Push on Linux: `notif daemon` polls the server and shows what is new, on a real desktop bus.
@Suite(.enabled(if: isRoot, "needs root for a throwaway user"))
struct AccountPushTests {
    @Test(.hangGuard)
    func theDaemonShowsNewServerNotificationsOnceAndOnlyWhileAllowed() throws {
        let user = try TestUser.make("notif-tpush")
        let sandbox = Sandbox()
        let binary = try NotifBinary.publicCopy(in: sandbox)
        let display = try VirtualDisplay()
        let session = try DesktopSession(user: user, display: display)
        let old = ["id": "1", "title": "Old news", "body": "already there", "sentAt": "2026-11-28T10:00:00Z"]
        let server = try AccountServer(script: ["history": ["status": 200, "body": [old]]])
        let env = session.environment.merging(["NOTIF_SCHEDULER": "embedded", "NOTIF_AUTH_TOKEN": "push-token"]) { a, _ in a }
        #expect(try user.run([binary, "account", "login", "--server", server.url], env).status == 0)
        _ = try user.run([binary, "permission", "grant"], env)
        let daemonEnv = user.environment(env)
        let assignments = daemonEnv.keys.sorted().map { "\($0)=\(daemonEnv[$0]!)" }
        let daemon = try DaemonProcess(["/usr/sbin/runuser", "-u", user.name, "--", "/usr/bin/env", "-i"] + assignments
                                           + [binary, "daemon", "--poll-interval", "10"],
                                       environment: ["PATH": "/usr/sbin:/usr/bin:/sbin:/bin"], outputIn: sandbox.path)
        #expect(daemon.waitUntilRunning(), "\(daemon.output)")
        let shownFile = user.stateDir + "/history-shown.json"
        #expect(waitUntil(20) { user.read(shownFile)?.contains("\"1\"") == true }, "the first poll notes what is there")
        #expect(try session.shown().isEmpty, "old history is not shown")
        try server.setScript(["history": ["status": 200, "body": [
            ["id": "2", "title": "Your table is ready", "body": "Queue 12", "sentAt": "2026-11-29T18:00:00Z"], old,
        ]]])
        var shown: [(app: String, summary: String)] = []
        let arrived = try waitUntil(40) {
            shown = try session.shown()
            return !shown.isEmpty
        }
        #expect(arrived, "the new server notification was not shown")
        #expect(shown.map(\.summary) == ["Your table is ready"])
        #expect(shown.first?.app == "notif")

        // Notifications no longer allowed: the next new item is logged as skipped, not shown.
        #expect(try user.run([binary, "permission", "deny"], env).status == 0)
        try server.setScript(["history": ["status": 200, "body": [
            ["id": "3", "title": "Promotion", "body": "not now", "sentAt": "2026-11-29T19:00:00Z"],
        ]]])
        let log = user.stateDir + "/deliveries.jsonl"
        #expect(waitUntil(40) { user.read(log)?.contains("\"server:3\"") == true }, "the daemon did not get to the new item")
        let line = user.read(log)?.split(separator: "\n").first { $0.contains("\"server:3\"") }.map(String.init) ?? ""
        #expect(line.contains("\"skipped\"") && line.contains("notifications are not allowed"), "\(line)")
        #expect(try session.shown().map(\.summary) == ["Your table is ready"], "shown while notifications were denied")
        daemon.send(SIGTERM)
        #expect(daemon.waitForExit() == 0, "\(daemon.output)")
        withExtendedLifetime(display) {}
    }
}
