import Glibc
@testable import Storage
import Testing

/// The one inotify reader the page and `notif daemon` share.
@Suite struct InotifyTests {
    @Test func noticesAreParsedWithTheirNames() {
        var bytes: [UInt8] = []
        func word(_ value: UInt32) { withUnsafeBytes(of: value) { bytes += $0 } }
        word(3); word(UInt32(IN_MOVED_TO)); word(0); word(16)
        bytes += Array("settings.json".utf8) + [0, 0, 0]
        word(4); word(UInt32(IN_DELETE_SELF)); word(0); word(0)
        #expect(Inotify.parse(bytes[...]) == [
            .init(watch: 3, mask: UInt32(IN_MOVED_TO), name: "settings.json"),
            .init(watch: 4, mask: UInt32(IN_DELETE_SELF), name: ""),
        ])
    }

    /// A real descriptor: nothing waits at first (and reading does not block), a finished write
    /// in the watched directory comes back with its name, once, on the watch it was added with.
    @Test func aWriteInAWatchedDirectoryIsReadOnce() throws {
        let dir = TempDir()
        let inotify = try #require(Inotify())
        let watch = try #require(inotify.add(dir.path, mask: UInt32(IN_CLOSE_WRITE)))
        #expect(inotify.add(dir.path + "/missing", mask: UInt32(IN_CLOSE_WRITE)) == nil)
        #expect(inotify.read().isEmpty)
        dir.write("{}", to: "settings.json")
        let notices = inotify.read()
        #expect(notices.contains(.init(watch: watch, mask: UInt32(IN_CLOSE_WRITE), name: "settings.json")), "\(notices)")
        #expect(inotify.read().isEmpty)
        inotify.remove(watch)
        dir.write("{}", to: "other.json")
        #expect(!inotify.read().contains { $0.name == "other.json" })
    }
}
