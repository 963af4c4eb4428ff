import Foundation
import Testing
import TestSupport

/// `notif daemon` against a server whose history is hostile: many items, empty titles, markup,
/// escape sequences in ids, while the notification service fails or records what it is given.
@Suite struct AccountHostileHistoryTests {
    let token = "tok-" + UUID().uuidString.prefix(12)

    /// The embedded scheduler, on the stand-in service's bus.
    func environment(_ sandbox: Sandbox, service: FakeNotificationService) -> [String: String] {
        sandbox.environment(["NOTIF_SCHEDULER": "embedded", "DBUS_SESSION_BUS_ADDRESS": service.busAddress])
    }

    /// Logged in with notifications allowed, past the first poll (which only notes what is there).
    func loggedIn(_ sandbox: Sandbox, _ server: AccountServer, _ env: [String: String]) throws {
        let login = try run([NotifBinary.path, "account", "login", "--server", server.url], environment: env, input: token + "\n")
        #expect(login.status == 0, "\(login)")
        #expect(try run([NotifBinary.path, "permission", "grant"], environment: env).status == 0)
        try sandbox.write("[]\n", to: sandbox.stateDir + "/history-shown.json")
    }

    func gets(_ server: AccountServer) -> Int { server.requests().filter { $0["method"] as? String == "GET" }.count }

    @Test(.hangGuard)
    func aFailingServiceAndAFloodOfItemsGiveBoundedWork() throws {
        let sandbox = Sandbox()
        // It records each Notify (with when) and answers it with an error.
        let service = try FakeNotificationService(config: ["fail_notify": true])
        var items: [[String: Any]] = [
            ["id": "esc\u{1B}[31m", "title": "red", "body": "x"],
            ["id": "\u{1B}]0;pwned\u{07}", "title": "t", "body": "x"],
            ["id": "<img src=x>", "title": "m", "body": "x"],
        ]
        for i in (0..<200).reversed() {
            items.append(["id": "item-\(i)", "title": i % 2 == 0 ? "" : "<b>Sale \(i)</b>",
                          "body": i % 3 == 0 ? "<img src=\"file:///etc/passwd\">" : "\u{1B}[2J body \(i)", "sentAt": "2026-11-29T10:00:00Z"])
        }
        let server = try AccountServer(script: ["history": ["status": 200, "body": items]])
        let env = environment(sandbox, service: service)
        try loggedIn(sandbox, server, env)
        let daemon = try DaemonProcess([NotifBinary.path, "daemon", "--poll-interval", "10"], environment: env, outputIn: sandbox.path)
        #expect(daemon.waitUntilRunning(), "\(daemon.output)")
        // Four polls: three attempts for the five newest items, then one with nothing left to try.
        #expect(waitUntil(70) { gets(server) >= 4 }, "\(gets(server)) polls: \(daemon.output)")
        daemon.send(SIGTERM)   // the poll under way finishes first
        #expect(daemon.waitForExit() == 0, "\(daemon.output)")

        let calls = service.notifications()
        #expect(calls.count == 15, "5 items × 3 attempts: \(calls.count) Notify calls")
        let times = calls.compactMap { $0["time"] as? Double }.sorted()
        var polls: [[Double]] = []
        for time in times {
            if let last = polls.last?.last, time - last < 5 { polls[polls.count - 1].append(time) } else { polls.append([time]) }
        }
        #expect(polls.map(\.count) == [5, 5, 5], "Notify calls per poll: \(polls.map(\.count))")
        let summaries = calls.map { $0["summary"] as? String ?? "" }
        #expect(summaries.allSatisfy { !$0.isEmpty && !$0.contains("<") && !$0.contains(">") }, "\(summaries)")
        #expect(summaries.contains("notif"), "an empty title is shown as notif")

        let logPath = sandbox.stateDir + "/deliveries.jsonl"
        let log = fileBytes(logPath) ?? Data()
        let text = String(decoding: log, as: UTF8.self)
        #expect(log.count < 16_384, "deliveries.jsonl grew to \(log.count) bytes")
        #expect(text.split(separator: "\n").count == 16, "15 attempts and one line for the rest: \(text)")
        #expect(text.components(separatedBy: "given up after 3 attempts").count - 1 == 5)
        #expect(text.contains("195 older new notifications not shown"))
        #expect(!log.contains(0x1B) && !text.lowercased().contains("\\u001b"), "an escape in the log: \(visible(text))")
        #expect(!text.contains("pwned") && !text.contains("esc") && !text.contains("img src=x"), "an invalid id was recorded")
        let output = daemon.output
        #expect(!output.unicodeScalars.contains { $0.value == 0x1B }, "an escape in the daemon's output: \(visible(output))")
        #expect(output.contains("3 items with invalid ids skipped"), "\(output)")
        let shown = sandbox.read(sandbox.stateDir + "/history-shown.json") ?? ""
        #expect(shown.contains("\"item-0\"") && shown.contains("\"item-199\"") && !shown.contains("pwned"))
    }

    @Test(.hangGuard)
    func serverTextReachesTheServiceWithoutMarkupOrControls() throws {
        let sandbox = Sandbox()
        let service = try FakeNotificationService(config: [:])
        let server = try AccountServer(script: ["history": ["status": 200, "body": [
            ["id": "m1", "title": "<b>Bold</b> & more", "body": "<img src=\"file:///etc/passwd\"> <a href=\"http://evil/\">x</a>"],
            ["id": "m2", "title": "", "body": "plain"],
            ["id": "m3", "title": "\u{1B}]0;t\u{07}Title\u{202E}", "body": "line1\n\u{1B}[2Jline2\u{2066}"],
        ] as [[String: Any]]]])
        let env = environment(sandbox, service: service)
        try loggedIn(sandbox, server, env)
        let daemon = try DaemonProcess([NotifBinary.path, "daemon", "--poll-interval", "10"], environment: env, outputIn: sandbox.path)
        #expect(waitUntil(30) { service.notifications().count >= 3 }, "\(daemon.output)")
        daemon.send(SIGTERM)
        #expect(daemon.waitForExit() == 0, "\(daemon.output)")
        let shown = service.notifications().map { [$0["summary"] as? String ?? "", $0["body"] as? String ?? ""] }
        let expected: Set<[String]> = [
            ["\u{2039}b\u{203A}Bold\u{2039}/b\u{203A} & more", "&lt;img src=\"file:///etc/passwd\"&gt; &lt;a href=\"http://evil/\"&gt;x&lt;/a&gt;"],
            ["notif", "plain"],
            ["]0;tTitle", "line1\n[2Jline2"],
        ]
        #expect(Set(shown) == expected, "\(shown.map { $0.map { visible($0) } })")
        let log = sandbox.read(sandbox.stateDir + "/deliveries.jsonl") ?? ""
        #expect(log.components(separatedBy: "\"delivered\"").count - 1 == 3, "\(log)")
    }
}
