import Foundation
import Testing
import LinuxGateway
import SharedLogic
import Storage
@testable import AccountClient

/// The daemon's poller over real files in a scratch directory, with the server answered in
/// memory and the desktop recorded (succeeding or failing as told).
final class PollerFixture: @unchecked Sendable {
    /// The server's history, as the poller fetches it: a JSON array.
    final class Server: HTTPTransport, @unchecked Sendable {
        private let lock = NSLock()
        private var _history: [UInt8] = Array("[]".utf8)
        func answer(_ items: [[String: String]]) {
            let data = try! JSONSerialization.data(withJSONObject: items)
            lock.withLock { _history = Array(data) }
        }
        func send(_ request: HTTPRequest) throws(AccountError) -> HTTPResponse {
            request.method == "GET" ? HTTPResponse(status: 200, body: lock.withLock { _history }) : HTTPResponse(status: 201, body: [])
        }
    }

    /// The desktop, recorded: the summary (as it is sent) and body per notification.
    final class Notifier: Desktop, @unchecked Sendable {
        private let lock = NSLock()
        private var _shown: [(summary: String, body: String)] = []
        private var _fails = false
        var fails: Bool {
            get { lock.withLock { _fails } }
            set { lock.withLock { _fails = newValue } }
        }
        var shown: [(summary: String, body: String)] { lock.withLock { _shown } }
        func show(summary: String, body: String, context: NotifContext) -> Result<String, GatewayError> {
            lock.withLock {
                _shown.append((DesktopNotifier.safeSummary(summary), body))
                return _fails ? .failure(GatewayError("the user bus: no notification service runs")) : .success("through the user bus as notification 7")
            }
        }
        func handOff(_ reminder: LocalReminder, day: CivilDate, context: NotifContext) -> HandoffAnswer { .failed("not in these tests") }
    }

    struct Fixed: WallClock {
        let instant: Instant
        func now() -> Instant { instant }
    }

    let directory: String
    let server = Server()
    let notifier = Notifier()
    private(set) var lines: [String] = []
    var now = Instant(seconds: 1_795_000_000)
    lazy var poller = AccountPoller(account: account, interval: 10, log: { [unowned self] in self.lines.append($0) })

    init() throws {
        directory = FileManager.default.temporaryDirectory.path + "/notif-poller-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try account.context.store.update {
            $0.mode = .account
            $0.accountServer = "https://example.org"
            $0.permission = .granted
            $0[.pushNotifications] = true
        }
        try account.store.saveAuthToken("token")
        try account.store.saveShownIDs([])   // past the first poll, which only notes what is there
    }

    deinit { try? FileManager.default.removeItem(atPath: directory) }

    var account: AccountService {
        // The session bus is the user's standard one, so it is the only one tried.
        let env = ["DBUS_SESSION_BUS_ADDRESS": "unix:path=/run/user/\(getuid())/bus"]
        let context = NotifContext(
            paths: NotifPaths(home: directory, configHome: directory + "/config", stateHome: directory + "/state"),
            clock: Fixed(instant: now), zone: .utc, runner: SpawnProcessRunner(), lookup: { env[$0] }, forcedScheduler: .embedded,
            probe: { SchedulerProbe(systemdUserManagerRunning: false, cronDaemonRunning: false, crontabProblem: nil) },
            executable: "/usr/local/bin/notif")
        var withDesktop = context
        withDesktop.desktop = notifier
        return AccountService(reminders: ReminderService(context: withDesktop), transport: server, appVersion: "1")
    }

    /// One poll, 10 s after the last.
    func poll() {
        poller.wake(now: now)
        now = now.adding(seconds: 10)
    }

    var records: [DeliveryRecord] { (try? account.context.deliveryLog.newest(10_000).reversed()) ?? [] }
}

@Suite struct AccountPollerTests {
    /// The daemon sleeps until the poller's next wake: a Guest project never asks for one, an
    /// Account project every interval, and a clock set back polls at once rather than a day late.
    @Test func onlyAnAccountProjectAsksForWakesAndAClockSetBackPollsAtOnce() throws {
        let fixture = try PollerFixture()
        fixture.server.answer(items(1))
        let start = fixture.now
        #expect(fixture.poller.wake(now: start) == start.adding(seconds: 10))
        #expect(fixture.notifier.shown.count == 1)
        let earlier = start.adding(seconds: -86_400)
        fixture.server.answer(items(2))
        #expect(fixture.poller.wake(now: earlier) == earlier.adding(seconds: 10))
        #expect(fixture.notifier.shown.count == 2, "a day early, the poll is made anyway")
        try fixture.account.context.store.update { $0.mode = .guest }
        #expect(fixture.poller.wake(now: start.adding(seconds: 60)) == nil)
    }

    func items(_ count: Int, title: String = "T") -> [[String: String]] {
        (0..<count).reversed().map { ["id": "n\($0)", "title": title, "body": "b\($0)", "sentAt": "2026-11-29T10:00:00Z"] }
    }

    @Test func atMostFiveNewItemsPerPollNewestFirstAndOneRecordForTheRest() throws {
        let fixture = try PollerFixture()
        fixture.server.answer(items(12))
        fixture.poll()
        #expect(fixture.notifier.shown.map(\.body) == ["b11", "b10", "b9", "b8", "b7"])
        let records = fixture.records
        #expect(records.count == 6, "\(records)")
        #expect(records.last?.reminder == "server" && records.last?.detail == "7 older new notifications not shown (at most 5 per poll)")
        #expect(fixture.lines.filter { $0.contains("not shown") }.count == 1)
        // The older ones were marked seen: the next poll shows nothing.
        fixture.poll()
        #expect(fixture.notifier.shown.count == 5)
        #expect(fixture.account.store.shownIDs().map(Set.init) == Set((0..<12).map { "n\($0)" }))
    }

    /// Found by a hostile review: a server sending fresh ids on every poll grew history-shown.json
    /// by every one of them (0.9 → 3.6 MB in 70 s). It keeps this answer's ids and a bounded
    /// number of earlier ones, the newest.
    @Test func theShownIDsStayBoundedWhateverTheServerSends() throws {
        let fixture = try PollerFixture()
        let perPoll = 100, polls = 15
        for poll in 0..<polls {
            fixture.server.answer((0..<perPoll).map { ["id": "p\(poll)-\($0)", "title": "T", "body": "b"] })
            fixture.poll()
        }
        let kept = try #require(fixture.account.store.shownIDs())
        #expect(kept.count == perPoll + AccountPoller.earlierShownKept, "\(kept.count) ids kept")
        #expect(Array(kept.prefix(perPoll)) == (0..<perPoll).map { "p\(polls - 1)-\($0)" }, "the answer's ids first")
        #expect(kept.contains("p4-99") && !kept.contains("p3-0"), "the newest earlier ones are kept")
        // Nothing the answer still holds is ever shown again.
        let shown = fixture.notifier.shown.count
        fixture.poll()
        #expect(fixture.notifier.shown.count == shown)
    }

    @Test func aFailingItemIsTriedThreeTimesInAllThenGivenUpOnOnce() throws {
        let fixture = try PollerFixture()
        fixture.notifier.fails = true
        fixture.server.answer(items(3))
        for _ in 0..<6 { fixture.poll() }
        #expect(fixture.notifier.shown.count == 9, "3 items, 3 attempts each: \(fixture.notifier.shown.count)")
        let records = fixture.records
        #expect(records.count == 9)
        #expect(records.filter { $0.detail.hasSuffix("given up after 3 attempts") }.map(\.reminder).sorted() == ["server:n0", "server:n1", "server:n2"])
        #expect(fixture.account.store.shownIDs().map(Set.init) == ["n0", "n1", "n2"])
        #expect(fixture.account.store.failedAttempts().isEmpty, "the attempts file does not keep given-up items")
        // A failure that goes away in time is shown and forgotten.
        fixture.server.answer(items(4))
        fixture.poll()
        fixture.notifier.fails = false
        fixture.poll()
        #expect(fixture.records.last?.outcome == .delivered && fixture.records.last?.reminder == "server:n3")
        #expect(fixture.account.store.failedAttempts().isEmpty)
        fixture.poll()
        #expect(fixture.notifier.shown.count == 11)
    }

    @Test func anEmptyTitleIsShownWithTheFallbackSummary() throws {
        let fixture = try PollerFixture()
        fixture.server.answer([["id": "1", "title": "", "body": "x"], ["id": "2", "title": " \t", "body": "y"]])
        fixture.poll()
        #expect(fixture.notifier.shown.map(\.summary) == ["notif", "notif"])
        #expect(fixture.records.map(\.outcome) == [.delivered, .delivered])
    }

    @Test func itemsWithInvalidIDsAreSkippedAndOnlyCounted() throws {
        let fixture = try PollerFixture()
        fixture.server.answer([["id": "ok-1", "title": "fine"], ["id": "bad\u{1B}[31m", "title": "esc"], ["id": "<b>", "title": "markup"],
                               ["id": "", "title": "empty"], ["id": String(repeating: "a", count: 129), "title": "long"]])
        fixture.poll()
        #expect(fixture.notifier.shown.map(\.summary) == ["fine"])
        #expect(fixture.records.map(\.reminder) == ["server:ok-1"])
        #expect(fixture.lines.filter { $0.contains("4 items with invalid ids skipped") }.count == 1, "\(fixture.lines)")
        #expect(!fixture.lines.joined().unicodeScalars.contains { $0.value == 0x1B } && !fixture.lines.joined().contains("<b>"))
        #expect(fixture.account.store.shownIDs().map(Set.init) == ["ok-1"])
    }
    /// `notif history` and the page's H show what the daemon would: never an item whose id is invalid.
    @Test func historyLeavesOutItemsWithInvalidIDs() throws {
        let fixture = try PollerFixture()
        fixture.server.answer([["id": "ok-1", "title": "fine"], ["id": "e\u{1B}]0;T\u{07}", "title": "esc"]])
        let history = try fixture.account.history()
        #expect(history.items.map(\.id) == ["ok-1"] && history.skipped == 1)
        // The cached copy holds only valid items too.
        #expect(fixture.account.store.cachedHistory()?.items.map(\.id) == ["ok-1"])
    }
}

@Suite struct ServerIDTests {
    @Test(arguments: ["1", "42", "a1", "n-3_x.y:z", String(repeating: "A", count: 128), "-1.5"])
    func accepted(id: String) { #expect(ServerNotification.isValidID(id)) }

    @Test(arguments: ["", String(repeating: "A", count: 129), "a b", "a\u{1B}b", "<b>", "a/b", "é", "a\nb", "a\u{202E}b", "1e+5"])
    func refused(id: String) { #expect(!ServerNotification.isValidID(id)) }
}
