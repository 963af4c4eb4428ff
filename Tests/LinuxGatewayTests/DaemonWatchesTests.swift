import Foundation
import Glibc
import Testing
import Storage
@testable import LinuxGateway

/// What the daemon watches, for each way the zone can be given.
@Suite struct DaemonWatchesTests {
    @Test func theZoneSettingsAndScheduleArePlacesAndMissingDirectoriesAreWatchedFromAbove() throws {
        let scratch = Scratch()
        let paths = scratch.paths
        let places = DaemonWatches.places(paths: paths, tz: nil)
        #expect(places.contains(WatchedPlace(file: "/etc/localtime")))
        // Neither the config nor the state directory exists yet: the scratch directory, for their names.
        #expect(places.contains(WatchedPlace(directory: scratch.path, names: .only(["config"]))))
        #expect(places.contains(WatchedPlace(directory: scratch.path, names: .only(["state"]))))
        try FileIO.makeDirectory(paths.configDirectory)
        try FileIO.makeDirectory(EmbeddedScheduler(paths: paths, owner: testOwner).directory)
        let made = DaemonWatches.places(paths: paths, tz: "Europe/Berlin")
        #expect(made.contains(WatchedPlace(directory: paths.configDirectory, names: .only(["settings.json"]), finishedWritesOnly: true)))
        #expect(made.contains(WatchedPlace(directory: EmbeddedScheduler(paths: paths, owner: testOwner).directory, names: .visible)))
        #expect(made.contains(WatchedPlace(directory: "/usr/share/zoneinfo/Europe", names: .only(["Berlin"]))))
        #expect(!made.contains { $0.path == "/etc/localtime" })
        // The waiters' locks: a waiter's end is a finished write there.
        #expect(made.contains(WatchedPlace(directory: paths.stateDirectory, names: .only(["wait-tips-and-updates.lock"]), finishedWritesOnly: true)))
        // A POSIX TZ string and UTC-by-empty have no file that could change.
        #expect(DaemonWatches.places(paths: paths, tz: "NTF-5:37").count == 3)
        #expect(DaemonWatches.places(paths: paths, tz: "").count == 3)
    }

    @Test func aSettingsLinkIsWatchedAtItsTargetToo() throws {
        let scratch = Scratch()
        let paths = scratch.paths
        try FileIO.makeDirectory(paths.configDirectory)
        try FileIO.makeDirectory(scratch.path + "/dotfiles")
        _ = FileManager.default.createFile(atPath: scratch.path + "/dotfiles/notif.json", contents: Data("{}".utf8))
        _ = symlink(scratch.path + "/dotfiles/notif.json", paths.settingsFile)
        let places = DaemonWatches.places(paths: paths, tz: "UTC")
        #expect(places.contains(WatchedPlace(directory: scratch.path + "/dotfiles", names: .only(["notif.json"]), finishedWritesOnly: true)))
    }
}
