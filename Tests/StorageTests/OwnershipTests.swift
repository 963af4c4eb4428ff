import Foundation
import Glibc
import Testing
import SharedLogic
@testable import Storage

/// Files and directories that belong to someone else are never acted on (README, Security).
@Suite struct OwnershipTests {
    @Test func ownDirectoriesPass() {
        let dir = TempDir()
        #expect(RunOwnership.problem(paths: dir.paths, euid: geteuid()) == nil)
        // Missing directories are fine: notif makes them, 0700, as this user.
        let missing = NotifPaths(home: dir.path + "/nope", configHome: dir.path + "/nope/c", stateHome: dir.path + "/nope/s")
        #expect(RunOwnership.problem(paths: missing, euid: geteuid()) == nil)
    }

    @Test func aHomeOfAnotherUserIsRefusedNamingIt() {
        let dir = TempDir()
        // The same directory seen by a process whose effective uid is not its owner's.
        let other = geteuid() == 4242 ? 4243 : 4242
        let problem = RunOwnership.problem(paths: dir.paths, euid: UInt32(other))
        #expect(problem?.contains("HOME \(dir.path) belongs to") == true, "\(problem ?? "nil")")
    }

    @Test func notifsOwnDirectoryWritableByOthersIsRefused() throws {
        let dir = TempDir()
        dir.write("{}", to: "config/notif/settings.json")
        chmod(dir.path + "/config/notif", 0o777)
        let problem = RunOwnership.problem(paths: dir.paths, euid: geteuid())
        #expect(problem?.contains("may be written by other users (mode 777)") == true, "\(problem ?? "nil")")
        chmod(dir.path + "/config/notif", 0o700)
        #expect(RunOwnership.problem(paths: dir.paths, euid: geteuid()) == nil)
    }

    @Test func stateFilesAndTheLogAreNeverReadOrWrittenThroughALink() throws {
        let dir = TempDir()
        let state = StateFiles(paths: dir.paths)
        try state.write("scheduler", "cron\n")
        dir.write("precious\n", to: "elsewhere")
        unlink(dir.paths.stateFile("scheduler"))
        symlink(dir.path + "/elsewhere", dir.paths.stateFile("scheduler"))
        #expect(throws: FileError.self) { try state.read("scheduler") }
        symlink(dir.path + "/elsewhere", dir.paths.deliveryLog)
        let log = DeliveryLog(path: dir.paths.deliveryLog)
        let record = DeliveryRecord(time: "2026-11-30T09:00:00Z", day: CivilDate(year: 2026, month: 11, day: 30),
                                    reminder: "tips-and-updates", kind: .test, outcome: .delivered, detail: "x")
        do {
            try log.append(record)
            Issue.record("appended through a link")
        } catch {
            #expect(error.description.contains("symbolic link"), "\(error)")
        }
        #expect(throws: FileError.self) { try log.newest(5) }
        #expect(dir.read("elsewhere") == "precious\n")
        // A lock file that is a link is refused too.
        symlink(dir.path + "/elsewhere", dir.paths.stateFile("apply.lock"))
        #expect(throws: FileError.self) { try state.lock("apply.lock") }
    }

    @Test func aSettingsLinkIsFollowedOnlyToTheUsersOwnFiles() throws {
        let dir = TempDir()
        let store = PreferencesStore(paths: dir.paths)
        dir.write("{\"version\": 1, \"promotions\": true}\n", to: "dotfiles/settings.json")
        try FileIO.makeDirectory(dir.paths.configDirectory)
        symlink(dir.path + "/dotfiles/settings.json", dir.paths.settingsFile)
        #expect(try store.load().preferences.promotions == true)
        // Pointing at a file that is not this user's (root's, as seen by a test run as root: so
        // only when not root; as root, /etc/hostname would be root's own).
        if geteuid() != 0 {
            unlink(dir.paths.settingsFile)
            symlink("/etc/hostname", dir.paths.settingsFile)
            #expect(throws: PreferencesError.self) { try store.load() }
        }
    }
}
