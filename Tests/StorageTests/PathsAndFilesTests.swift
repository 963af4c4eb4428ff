import Foundation
import Testing
import SharedLogic
@testable import Storage

@Suite struct NotifPathsTests {
    @Test func xdgValuesAreUsedWhenAbsolute() {
        let env = ["HOME": "/home/u", "XDG_CONFIG_HOME": "/cfg", "XDG_STATE_HOME": "/st"]
        let paths = NotifPaths.fromEnvironment { env[$0] }
        #expect(paths.settingsFile == "/cfg/notif/settings.json")
        #expect(paths.deliveryLog == "/st/notif/deliveries.jsonl")
    }

    @Test func relativeXDGValuesAreIgnored() {
        let env = ["HOME": "/home/u", "XDG_CONFIG_HOME": "cfg", "XDG_STATE_HOME": ""]
        let paths = NotifPaths.fromEnvironment { env[$0] }
        #expect(paths.settingsFile == "/home/u/.config/notif/settings.json")
        #expect(paths.stateDirectory == "/home/u/.local/state/notif")
    }
}

@Suite struct AtomicFileTests {
    @Test func replacesContentWithMode0600AndLeavesNoTemp() throws {
        let dir = TempDir()
        let path = dir.path + "/f"
        try AtomicFile.write(Array("one".utf8), to: path)
        try AtomicFile.write(Array("two".utf8), to: path)
        #expect(dir.read("f") == "two")
        #expect(dir.mode("f") == 0o600)
        #expect(dir.list("") == ["f"])
    }

    /// A writer killed half way (SIGKILL during `notif set`) left its temp file: the next write of
    /// the same file removes it when its process is gone; a live writer's, and other names, stay.
    @Test func aKilledWritersTempFileGoesWithTheNextWrite() throws {
        let dir = TempDir()
        let gone = Process()
        gone.executableURL = URL(fileURLWithPath: "/bin/true")
        try gone.run()
        gone.waitUntilExit()
        let dead = gone.processIdentifier
        let names = [".f.tmp-\(dead)-42", ".f.tmp-\(getpid())-7", ".f.tmp-\(dead)-x", ".g.tmp-\(dead)-1", "f.tmp-\(dead)-1"]
        for name in names { dir.write("{", to: name) }
        try AtomicFile.write(Array("new".utf8), to: dir.path + "/f")
        #expect(dir.list("") == (["f"] + names.dropFirst()).sorted())
        #expect(dir.read("f") == "new")
    }

    @Test func failureNamesThePath() {
        #expect {
            try AtomicFile.write([1], to: "/nonexistent-dir-xyz/f")
        } throws: { "\($0)".contains("/nonexistent-dir-xyz/f") }
    }
}

@Suite struct DeliveryLogTests {
    func record(_ i: Int, kind: DeliveryKind = .scheduled) -> DeliveryRecord {
        DeliveryRecord(time: "2026-12-01T09:00:\(i % 60 < 10 ? "0" : "")\(i % 60)+01:00", day: CivilDate(year: 2026, month: 12, day: 1),
                       reminder: "tips-and-updates", kind: kind, outcome: .delivered, detail: "n\(i)")
    }

    @Test func newestFirstAcrossChunkBoundaries() throws {
        let dir = TempDir()
        let log = DeliveryLog(path: dir.path + "/state/deliveries.jsonl")
        for i in 0..<1000 { try log.append(record(i)) }
        let newest = try log.newest(3)
        #expect(newest.map(\.detail) == ["n999", "n998", "n997"])
        #expect(try log.newest(5000).count == 1000)
        #expect(try log.newest(1000).last?.detail == "n0")
        #expect(dir.mode("state/deliveries.jsonl") == 0o600)
    }

    @Test func tornAndForeignLinesAreSkipped() throws {
        let dir = TempDir()
        let log = DeliveryLog(path: dir.path + "/d.jsonl")
        try log.append(record(1))
        let handle = FileHandle(forWritingAtPath: dir.path + "/d.jsonl")!
        handle.seekToEndOfFile()
        handle.write(Data("not json\n{\"time\": 3}\n{\"half\": ".utf8))
        handle.closeFile()
        try log.append(record(2))
        #expect(try log.newest(10).map(\.detail) == ["n2", "n1"])
    }

    @Test func filterSkipsTests() throws {
        let dir = TempDir()
        let log = DeliveryLog(path: dir.path + "/d.jsonl")
        try log.append(record(1))
        try log.append(record(2, kind: .test))
        #expect(try log.newest(1) { $0.kind != .test }.first?.detail == "n1")
        #expect(try DeliveryLog(path: dir.path + "/missing").newest(5).isEmpty)
    }
}

@Suite struct StateFilesTests {
    @Test func writesOnlyWhenChanged() throws {
        let dir = TempDir()
        let state = StateFiles(paths: dir.paths)
        #expect(try state.write("scheduler", "cron\n"))
        #expect(try !state.write("scheduler", "cron\n"))
        #expect(try state.read("scheduler") == "cron\n")
        #expect(dir.mode("state/notif") == 0o700)
        #expect(dir.mode("state/notif/scheduler") == 0o600)
    }

    @Test func lastDeliveredDays() throws {
        let dir = TempDir()
        let state = StateFiles(paths: dir.paths)
        #expect(state.lastDelivered().isEmpty)
        try state.recordDelivered("tips-and-updates", on: CivilDate(year: 2026, month: 12, day: 1))
        #expect(state.lastDelivered() == ["tips-and-updates": CivilDate(year: 2026, month: 12, day: 1)])
    }
}

@Suite struct FileLockTests {
    @Test func aHeldLockBlocksOthersUntilReleased() throws {
        let dir = TempDir()
        let lock = try FileLock.acquire(dir.path + "/l")
        #expect(try FileLock.tryAcquire(dir.path + "/l") == nil)
        lock.release()
        // Other tests start processes meanwhile: a child between fork and exec shares the
        // descriptor for a moment, and with it the lock. Once it has exec'd the lock is free.
        var again: HeldLock?
        for _ in 0..<500 where again == nil {
            again = try FileLock.tryAcquire(dir.path + "/l")
            if again == nil { usleep(10_000) }
        }
        #expect(again != nil)
    }
}

@Suite struct OwnExecutableTests {
    /// The kernel marks a running program's removed file with " (deleted)" in /proc/self/exe.
    @Test(arguments: [
        ("/usr/local/bin/notif", "/usr/local/bin/notif"),
        ("/usr/local/bin/notif (deleted)", "/usr/local/bin/notif"),
        ("/opt/my bin (deleted)/notif", "/opt/my bin (deleted)/notif"),
        ("/opt/notif (deleted) (deleted)", "/opt/notif (deleted)"),
        ("/opt/notif(deleted)", "/opt/notif(deleted)"),
    ])
    func theDeletedMarkIsTakenOffTheEnd(link: String, path: String) {
        #expect(FileIO.executablePath(fromLink: link) == path)
    }

    @Test func onlyAnExecutableRegularFileCounts() throws {
        let dir = TempDir()
        let program = dir.path + "/prog", plain = dir.path + "/plain", folder = dir.path + "/dir"
        _ = FileManager.default.createFile(atPath: program, contents: Data("#!/bin/sh\n".utf8), attributes: [.posixPermissions: 0o755])
        _ = FileManager.default.createFile(atPath: plain, contents: Data("x".utf8), attributes: [.posixPermissions: 0o644])
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        #expect(FileIO.isExecutable(program))
        #expect(!FileIO.isExecutable(dir.path + "/missing"))
        #expect(!FileIO.isExecutable(folder))
        #expect(!FileIO.isExecutable("prog"), "a relative path is never one")
        #expect(!FileIO.isExecutable(plain), "no x bit: not even root may run it")
    }

    @Test func theRunningProgramIsFound() {
        let path = FileIO.currentExecutable()
        #expect(path.map(FileIO.isExecutable) == true, "\(path ?? "nil")")
    }
}
