import Foundation
import Testing

/// curl obeys notif's transport rules only, whatever the user's curl settings and proxy
/// variables say: no `.curlrc`, no redirects followed, no proxy between notif and a loopback
/// server (the bearer token would cross it in clear text).
@Suite struct AccountTransportRulesTests {
    let token = "tok-" + UUID().uuidString.prefix(12)
    let env = ["NOTIF_SCHEDULER": "embedded"]

    @Test func aCurlrcCanNeitherFollowARedirectNorWriteAFile() throws {
        let sandbox = Sandbox()
        let server = try AccountServer()
        let other = try AccountServer(script: ["history": ["status": 200, "body": [["id": "1", "title": "from the other host"]]]])
        let written = sandbox.path + "/written-by-curlrc"
        // Both places curl looks for it: $XDG_CONFIG_HOME/.curlrc (curl 7.73+) and ~/.curlrc.
        let curlrc = "location\noutput = \"\(written)\"\n"
        try sandbox.write(curlrc, to: sandbox.path + "/home/.curlrc")
        try sandbox.write(curlrc, to: sandbox.path + "/xdg/.curlrc")
        let env = self.env.merging(["XDG_CONFIG_HOME": sandbox.path + "/xdg"]) { _, new in new }
        let login = try sandbox.notif(["account", "login", "--server", server.url], env, input: token + "\n")
        #expect(login.status == 0 && login.stdout.contains("Device token: registered"), "\(login)")

        try server.setScript(["historyRedirect": other.url + "/api/v1/app/notifications"])
        let moved = try sandbox.notif(["history"], env)
        #expect(moved.status == 1 && moved.stderr.contains("redirect"), "\(moved)")
        #expect(!moved.stdout.contains("from the other host"))
        #expect(other.requests().isEmpty, "the other host was contacted: \(other.requests())")
        #expect(!FileManager.default.fileExists(atPath: written), "curl wrote the file the .curlrc named")
        #expect(server.requests().count == 2)
    }

    @Test func aProxyInTheEnvironmentNeverSeesALoopbackServer() throws {
        let sandbox = Sandbox()
        let server = try AccountServer(script: ["history": ["status": 200, "body": [["id": "1", "title": "Hello"]]]])
        let proxy = try AccountServer()   // records whatever reaches it
        var env = self.env
        for name in ["http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "ALL_PROXY", "all_proxy"] { env[name] = proxy.url }
        for url in [server.url, "http://localhost:\(server.port)"] {
            let login = try sandbox.notif(["account", "login", "--server", url], env, input: token + "\n")
            #expect(login.status == 0 && login.stdout.contains("Device token: registered"), "\(url): \(login)")
            let history = try sandbox.notif(["history"], env)
            #expect(history.status == 0 && history.stdout.contains("Hello"), "\(url): \(history)")
        }
        #expect(proxy.requests().isEmpty, "the proxy received: \(proxy.requests())")
        let sent = server.requests().compactMap { ($0["headers"] as? [String: String])?["Authorization"] }
        #expect(sent.count == 4 && sent.allSatisfy { $0 == "Bearer " + token }, "\(sent)")
    }
}
