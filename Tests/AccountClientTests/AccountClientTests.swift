import Foundation
import Testing
import LinuxGateway
import SharedLogic
@testable import AccountClient

@Suite struct SHA256Tests {
    @Test func knownVectors() {
        #expect(SHA256.hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SHA256.hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq") == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(SHA256.hex(String(repeating: "a", count: 1000)) == "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3")
    }
}

@Suite struct ServerURLTests {
    @Test(arguments: ["https://example.org", "https://example.org/", "https://example.org:8443/app/", "http://127.0.0.1:8080", "http://localhost", "http://[::1]:9000"])
    func accepted(text: String) throws {
        let url = try ServerURL(parsing: text)
        #expect(url.endpoint("/api/v1/app/notifications").hasSuffix("/api/v1/app/notifications"))
        #expect(!url.description.hasSuffix("/"))
    }

    @Test(arguments: ["http://example.org", "http://127.0.0.1.evil.org", "ftp://example.org", "example.org", "https://", "https://u:p@example.org",
                      "https://example.org/?q=1", "https://example.org/#x", "https://exa mple.org", "https://example.org:99999", "https://example.org:x"])
    func refused(text: String) {
        #expect(throws: AccountError.self) { try ServerURL(parsing: text) }
    }
}

@Suite struct CurlTransportTests {
    final class Capture: ProcessRunner, @unchecked Sendable {
        var argv: [String] = []
        var input = ""
        let answer: ProcessResult
        init(_ answer: ProcessResult) { self.answer = answer }
        func run(_ argv: [String], input: [UInt8]?, environment: [String: String?], timeout: Double) throws(SpawnError) -> ProcessResult {
            self.argv = argv
            self.input = String(decoding: input ?? [], as: UTF8.self)
            return answer
        }
    }

    @Test func theTokenGoesToStdinNeverToArguments() throws {
        let runner = Capture(ProcessResult(exitStatus: 0, stdout: Array("[]\n--notif-http-status:200".utf8)))
        let api = AccountAPI(server: try ServerURL(parsing: "https://example.org"), transport: CurlTransport(runner: runner))
        #expect(try api.history(authToken: "s3cret\"quote").isEmpty)
        #expect(runner.argv == ["curl", "-q", "--config", "-"], "-q first: a user's .curlrc is never read")
        #expect(!runner.argv.joined().contains("s3cret"))
        #expect(runner.input.contains(#"header = "Authorization: Bearer s3cret\"quote""#))
        #expect(runner.input.contains(#"url = "https://example.org/api/v1/app/notifications""#))
        #expect(!runner.input.contains("location"), "redirects are never followed")
        #expect(runner.input.contains("\ngloboff\n"), "{a,b} in a URL is one request, not three")
    }

    /// curl follows notif's rules only: no .curlrc (`-q`, first), no redirects, no proxy for loopback.
    @Test(arguments: [("http://127.0.0.1:8080", true), ("http://localhost:9", true), ("http://[::1]:9000/app", true),
                      ("http://127.1.2.3", true), ("https://example.org", false), ("https://127.0.0.1.example.org", false)])
    func curlIgnoresCurlrcNeverRedirectsAndNeverProxiesLoopback(server: String, loopback: Bool) throws {
        let runner = Capture(ProcessResult(exitStatus: 0, stdout: Array("{}\n--notif-http-status:201".utf8)))
        let api = AccountAPI(server: try ServerURL(parsing: server), transport: CurlTransport(runner: runner))
        try api.register(deviceToken: "d", authToken: "a", appVersion: "1")
        #expect(runner.argv.first == "curl" && runner.argv.dropFirst().first == "-q", "curl honours -q only as its first argument: \(runner.argv)")
        let lines = runner.input.split(separator: "\n").map(String.init)
        #expect(lines.contains("max-redirs = 0"))
        #expect(!lines.contains { $0.hasPrefix("location") || $0.hasPrefix("-L") || $0.hasPrefix("proxy ") || $0.hasPrefix("output") })
        #expect(lines.contains(#"noproxy = "*""#) == loopback, "\(server): \(lines)")
    }

    @Test func curlFailuresBecomeMessages() throws {
        for (status, kind) in [(Int32(7), AccountError.Kind.unreachable), (28, .unreachable), (63, .tooLarge), (60, .refused)] {
            let runner = Capture(ProcessResult(exitStatus: status, stderr: Array("curl: (\(status)) x".utf8)))
            let transport = CurlTransport(runner: runner)
            #expect { try transport.send(HTTPRequest(method: "GET", url: "https://x", headers: [])) } throws: {
                ($0 as? AccountError)?.kind == kind
            }
        }
    }

    @Test func statusesAreChecked() throws {
        for (code, text) in [(401, "log in again"), (302, "redirect"), (500, "HTTP 500")] {
            let runner = Capture(ProcessResult(exitStatus: 0, stdout: Array("{}\n--notif-http-status:\(code)".utf8)))
            let api = AccountAPI(server: try ServerURL(parsing: "https://example.org"), transport: CurlTransport(runner: runner))
            #expect { try api.register(deviceToken: "d", authToken: "a", appVersion: "1") } throws: { "\($0)".contains(text) }
        }
    }
}

@Suite struct ServerNotificationTests {
    @Test func listsParseWithExtraFieldsAndNumericIDs() throws {
        let items = try ServerNotification.list(from: Array(#"[{"id": 3, "title": "T", "body": "B", "sentAt": "2026-11-29T10:00:00Z", "x": [1]}]"#.utf8))
        #expect(items == [ServerNotification(id: "3", title: "T", body: "B", sentAt: "2026-11-29T10:00:00Z")])
        #expect(try ServerNotification.list(from: Array(#"{"notifications": []}"#.utf8)).isEmpty)
    }

    @Test(arguments: ["nope", "{}", "[1]", "[{\"title\": \"no id\"}]", "\"x\""])
    func garbageIsRefused(text: String) {
        #expect(throws: AccountError.self) { try ServerNotification.list(from: Array(text.utf8)) }
    }

    /// Bytes that are no JSON are said by place, without the settings file's fix: the person has
    /// no file of the server's to restore (trial 39, R1).
    @Test func garbageIsSaidByPlaceWithoutAFileToFix() {
        do {
            _ = try ServerNotification.list(from: [0, 1, 2])
            Issue.record("no error")
        } catch {
            #expect(error.message == "the server's history is not valid JSON (line 1, column 1: a NUL byte)", "\(error.message)")
        }
    }
}
