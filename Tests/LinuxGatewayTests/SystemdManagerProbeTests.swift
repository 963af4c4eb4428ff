import Foundation
import Glibc
import Testing
import TestSupport
@testable import LinuxGateway

/// A systemd user manager counts as running only when its `systemd/private` socket accepts a
/// connection: the file stays behind a manager that was stopped or died (the live manager
/// itself is in EndToEndTests/LiveSystemdTests).
@Suite struct SystemdManagerProbeTests {
    /// A runtime directory with `systemd/` in it, removed afterwards.
    final class RuntimeDirectory {
        let path = FileManager.default.temporaryDirectory.path + "/notif-runtime-" + UUID().uuidString.prefix(8)
        init() throws { try FileManager.default.createDirectory(atPath: path + "/systemd", withIntermediateDirectories: true) }
        deinit { try? FileManager.default.removeItem(atPath: path) }
        var socket: String { path + "/systemd/private" }

        func running() -> Bool {
            let path = self.path
            return SchedulerProbe.live(environment: { $0 == "XDG_RUNTIME_DIR" ? path : nil }).systemdUserManagerRunning
        }
    }

    /// Binds and listens on `path`, as the manager does; the caller closes the descriptor.
    func listen(on path: String) -> Int32 {
        // Close-on-exec: a program another test starts meanwhile would otherwise inherit the socket
        // and keep it answering after this test closes it.
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { for (i, b) in path.utf8.enumerated() { $0[i] = b } }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + path.utf8.count + 1)
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
        #expect(bound == 0 && Glibc.listen(fd, 4) == 0)
        return fd
    }

    @Test func aListeningManagerSocketIsARunningManager() throws {
        let runtime = try RuntimeDirectory()
        #expect(!runtime.running(), "no socket")
        let fd = listen(on: runtime.socket)
        defer { close(fd) }
        #expect(runtime.running())
    }

    @Test func aSocketLeftByADeadManagerIsNotARunningOne() throws {
        let runtime = try RuntimeDirectory()
        close(listen(on: runtime.socket))
        #expect(FileManager.default.fileExists(atPath: runtime.socket), "the socket file stays when its listener is gone")
        // A program another test starts at this moment holds a copy of the listener from its fork
        // until its exec closes it, so the socket may answer for a moment; a probe that looks only
        // at the file would say "running" for ever.
        #expect(waitUntil(10) { !runtime.running() })
    }

    @Test func aPlainFileNamedPrivateIsNotAManager() throws {
        let runtime = try RuntimeDirectory()
        #expect(FileManager.default.createFile(atPath: runtime.socket, contents: Data()))
        #expect(!runtime.running())
    }

    @Test func aRelativeRuntimeDirectoryIsIgnored() {
        // Relative XDG values are ignored: /run/user/UID is asked instead, which need not answer here.
        let probe = SchedulerProbe.live(environment: { $0 == "XDG_RUNTIME_DIR" ? "relative/dir" : nil })
        #expect(probe.systemdUserManagerRunning == SchedulerProbe.systemdManagerAnswers(runtimeDirectory: nil))
    }
}
