import Foundation
import Testing
@testable import LinuxGateway

/// A process counts as the caller's `notif daemon` only with the caller's real and effective uid
/// and a notif program: a setuid program another user started (`su`) keeps euid 0.
@Suite struct RunningDaemonsTests {
    /// A made-up /proc entry: its status's Uid line, its exe link, its argv.
    func process(_ root: String, _ pid: Int, uid: String, exe: String, argv: [String]) throws {
        let dir = root + "/\(pid)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try "Name:\tx\nUid:\t\(uid)\nGid:\t0\t0\t0\t0\n".write(toFile: dir + "/status", atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: dir + "/exe", withDestinationPath: exe)
        try Data((argv.joined(separator: "\0") + "\0").utf8).write(to: URL(fileURLWithPath: dir + "/cmdline"))
        try Data("HOME=/h\(pid)\0XDG_STATE_HOME=/s\(pid)\0OTHER=x\0".utf8).write(to: URL(fileURLWithPath: dir + "/environ"))
    }

    @Test func onlyTheCallersOwnNotifDaemonsCount() throws {
        let scratch = Scratch()
        let root = scratch.path
        try process(root, 10, uid: "1000\t1000\t1000\t1000", exe: "/usr/bin/notif", argv: ["/usr/bin/notif", "daemon"])
        try process(root, 11, uid: "1001\t0\t0\t0", exe: "/usr/bin/su", argv: ["su", "daemon"])
        try process(root, 12, uid: "1000\t0\t0\t0", exe: "/usr/bin/notif", argv: ["notif", "daemon"])
        try process(root, 13, uid: "1000\t1000\t1000\t1000", exe: "/usr/sbin/sshd", argv: ["sshd", "daemon"])
        try process(root, 14, uid: "1000\t1000\t1000\t1000", exe: "/opt/notif (deleted)", argv: ["/opt/notif", "daemon"])
        try process(root, 15, uid: "1000\t1000\t1000\t1000", exe: "/usr/bin/notif", argv: ["notif", "status"])
        #expect(RunningDaemons.realAndEffectiveUID(root + "/11").map { [$0.real, $0.effective] } == [1001, 0])
        let found = RunningDaemons.environments(procRoot: root, uid: 1000).map { $0["HOME"] ?? "" }.sorted()
        #expect(found == ["/h10", "/h14"], "\(found)")
        #expect(RunningDaemons.environments(procRoot: root, uid: 0).isEmpty, "root: su, with euid 0 but another real uid, is not root's daemon")
    }
}
