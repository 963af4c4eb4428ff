import Foundation
import Glibc
import Testing
@testable import LinuxGateway

/// Which session buses notif hands notifications to (the attack with another user's listener
/// is in EndToEndTests/SecurityTests).
@Suite struct BusPeerTests {
    @Test func addressesNameTheirSocket() {
        #expect(BusPeer.socket(of: "unix:path=/run/user/5/bus")! == ("/run/user/5/bus", false))
        #expect(BusPeer.socket(of: "unix:abstract=/tmp/dbus-x,guid=1")! == ("/tmp/dbus-x", true))
        #expect(BusPeer.socket(of: "tcp:host=1.2.3.4,port=5;unix:path=/a%20b")! == ("/a b", false))
        #expect(BusPeer.socket(of: "tcp:host=localhost,port=1") == nil)
        #expect(BusPeer.problem(with: "tcp:host=localhost,port=1", uid: getuid()) == "not a local socket")
    }

    @Test func theGuidIsTheOneOfTheSocketsEntry() {
        #expect(BusPeer.guid(of: "unix:path=/tmp/dbus-x,guid=0123abcd") == "0123abcd")
        #expect(BusPeer.guid(of: "unix:guid=77,abstract=/tmp/dbus-x") == "77")
        #expect(BusPeer.guid(of: "tcp:host=h,port=1,guid=55;unix:path=/a") == nil)
        #expect(BusPeer.guid(of: "unix:path=/run/user/5/bus") == nil)
    }

    /// A listening socket made by this process, at `path` (or in the abstract namespace).
    func listen(_ name: String, abstract: Bool = false) -> Int32 {
        // Close-on-exec: a program another test starts meanwhile would otherwise inherit the socket
        // and keep it answering after this test closes it.
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(name.utf8)
        let offset = abstract ? 1 : 0
        withUnsafeMutableBytes(of: &address.sun_path) { for (i, b) in bytes.enumerated() { $0[i + offset] = b } }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + offset + bytes.count + (abstract ? 0 : 1))
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
        #expect(bound == 0 && Glibc.listen(fd, 4) == 0)
        return fd
    }

    @Test func aSocketThisUserServesIsTrustedAndOthersAreNot() throws {
        let dir = FileManager.default.temporaryDirectory.path + "/notif-bus-" + UUID().uuidString.prefix(8)
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let me = geteuid()
        let path = dir + "/bus"
        #expect(BusPeer.problem(with: "unix:path=\(path)", uid: me)?.contains("is gone") == true)
        _ = FileManager.default.createFile(atPath: path, contents: Data())
        #expect(BusPeer.problem(with: "unix:path=\(path)", uid: me)?.contains("not a socket") == true)
        unlink(path)
        let fd = listen(path)
        // Closed below, once: a second close could close another test's descriptor of that number.
        #expect(BusPeer.problem(with: "unix:path=\(path),guid=9", uid: me) == nil)
        #expect(BusPeer.listenerUID(path, abstract: false) == me)
        // Where anyone may rename the socket away and put another in its place: not trusted.
        chmod(dir, 0o777)
        #expect(BusPeer.problem(with: "unix:path=\(path)", uid: me)?.contains("writable by everyone") == true)
        chmod(dir, 0o1777)
        #expect(BusPeer.problem(with: "unix:path=\(path)", uid: me) == nil, "sticky, like /tmp")
        // A socket nobody listens on any more.
        close(fd)
        #expect(BusPeer.problem(with: "unix:path=\(path)", uid: me)?.contains("nothing answers") == true)
        let name = "/notif-test-" + UUID().uuidString
        let abstract = listen(name, abstract: true)
        defer { close(abstract) }
        #expect(BusPeer.problem(with: "unix:abstract=\(name)", uid: me) == nil)
        #expect(BusPeer.problem(with: "unix:abstract=\(name)-other", uid: me)?.contains("nothing answers") == true)
    }
}

@Suite struct BusPeerListTests {
    /// A client tries the entries of a list in turn: a tcp entry before the user's own socket
    /// would reach whoever listens on that port.
    @Test func everyEntryOfAListMustPass() {
        #expect(BusPeer.problem(with: "tcp:host=127.0.0.1,port=47123;unix:path=/nonexistent", uid: getuid()) == "not a local socket")
        #expect(BusPeer.problem(with: "unix:path=/nonexistent/a;tcp:host=127.0.0.1,port=1", uid: getuid())?.contains("is gone") == true)
        #expect(BusPeer.problem(with: "", uid: getuid()) == "not a local socket")
    }
}
