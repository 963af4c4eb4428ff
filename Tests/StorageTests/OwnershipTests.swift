import Foundation
import Glibc
import Testing
import SharedLogic
@testable import Storage

/// Files and directories that belong to someone else are never acted on (doc/security.md).
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

    /// notif's directory made a link (of the user's own) to a directory that is not the user's:
    /// refused, and the message says where the link leads.
    @Test(.enabled(if: geteuid() == 0, "needs root to give a directory away"))
    func aConfigDirectoryLinkedToAnotherUsersIsNamedWithWhereItLeads() throws {
        let dir = TempDir()
        let theirs = dir.path + "/theirs"
        try FileManager.default.createDirectory(atPath: theirs, withIntermediateDirectories: true)
        chown(theirs, 65534, 65534)
        try FileManager.default.createDirectory(atPath: dir.path + "/config", withIntermediateDirectories: true)
        symlink(theirs, dir.paths.configDirectory)
        let problem = RunOwnership.problem(paths: dir.paths, euid: geteuid())
        #expect(problem?.hasPrefix("\(dir.paths.configDirectory) leads to \(Posix.resolved(theirs) ?? theirs), which belongs to ") == true, "\(problem ?? "nil")")
        #expect(problem?.hasSuffix("remove the link (`rm \(dir.paths.configDirectory)`) or make it lead to a directory of yours") == true, "\(problem ?? "nil")")
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
        #expect(try store.load().preferences[.promotions] == true)
        // Pointing at a file that is not this user's (root's, as seen by a test run as root: so
        // only when not root; as root, /etc/hostname would be root's own).
        if geteuid() != 0 {
            unlink(dir.paths.settingsFile)
            symlink("/etc/hostname", dir.paths.settingsFile)
            #expect(throws: PreferencesError.self) { try store.load() }
        }
    }

    /// XDG directories where other users can put or replace units and entries (found by a
    /// hostile-user trial: an XDG_CONFIG_HOME in a world-writable directory).
    @Test func sharedOrForeignXDGDirectoriesAreRefused() throws {
        let dir = TempDir()
        try FileIO.makeDirectory(dir.paths.configHome)
        chmod(dir.paths.configHome, 0o1777)
        let sticky = RunOwnership.problem(paths: dir.paths, euid: geteuid()) ?? ""
        #expect(sticky.contains("may be written by every user") && sticky.hasSuffix("use a directory of your own"),
                "a shared sticky directory (like /tmp) is never to be closed with chmod: \(sticky)")
        #expect(RunOwnership.problem(paths: NotifPaths(home: dir.paths.home, configHome: "/tmp", stateHome: dir.paths.stateHome))?
            .contains("chmod") == false, "no chmod advice for /tmp")
        chmod(dir.paths.configHome, 0o777)
        #expect(RunOwnership.problem(paths: dir.paths, euid: geteuid())?.hasSuffix("(or `chmod o-w \(dir.paths.configHome)`)") == true,
                "one's own plain directory may be closed")
        chmod(dir.paths.configHome, 0o700)
        try FileIO.makeDirectory(dir.paths.configHome + "/systemd/user")
        chmod(dir.paths.configHome + "/systemd/user", 0o777)
        #expect(RunOwnership.problem(paths: dir.paths, euid: geteuid())?.contains("systemd/user may be written by every user") == true)
        chmod(dir.paths.configHome + "/systemd/user", 0o700)
        #expect(RunOwnership.problem(paths: dir.paths, euid: geteuid()) == nil)
    }

    /// As root: a missing HOME inside another user's directory, a directory or link of notif's
    /// that another uid owns (made with chown, which only root may do).
    @Test(.enabled(if: geteuid() == 0)) func foreignOwnersAreNamedWhenRoot() throws {
        let dir = TempDir()
        let other: UInt32 = 4242
        chown(dir.path, other, other)
        let missingHome = NotifPaths(home: dir.path + "/nosuchdir", configHome: dir.path + "/nosuchdir/.config",
                                     stateHome: dir.path + "/nosuchdir/.local/state")
        #expect(RunOwnership.problem(paths: missingHome, euid: 0)?.contains("does not exist, and \(dir.path) belongs to") == true)
        chown(dir.path, 0, 0)
        try FileIO.makeDirectory(dir.path + "/elsewhere")
        try FileIO.makeDirectory(dir.paths.stateHome)
        symlink(dir.path + "/elsewhere", dir.paths.stateDirectory)
        lchown(dir.paths.stateDirectory, other, other)
        #expect(RunOwnership.problem(paths: dir.paths, euid: 0)?.contains("is a link that belongs to") == true)
    }

    /// A FIFO where the log or a lock file should be never hangs a command.
    @Test(.timeLimit(.minutes(5))) func aFIFOInPlaceOfTheLogOrALockDoesNotHang() throws {
        let dir = TempDir()
        try FileIO.makeDirectory(dir.paths.stateDirectory)
        #expect(mkfifo(dir.paths.deliveryLog, 0o600) == 0)
        #expect(throws: FileError.self) { try DeliveryLog(path: dir.paths.deliveryLog).newest(5) }
        let lock = dir.paths.stateFile("daemon.lock")
        #expect(mkfifo(lock, 0o600) == 0)
        #expect(!FileLock.isHeld(lock))
    }
}
