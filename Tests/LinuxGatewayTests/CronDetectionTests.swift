import Foundation
import Testing
import TestSupport
@testable import LinuxGateway

/// root's cron daemons as `ps` sees them (an independent look, not the code under test).
func rootCronDaemons() -> [String] {
    guard let result = try? sh(["ps", "-e", "-o", "pid=,ruid=,euid=,comm="]), result.succeeded else { return [] }
    return result.stdoutText.split(separator: "\n").filter { line in
        let fields = line.split(separator: " ", omittingEmptySubsequences: true)
        return fields.count == 4 && fields[1] == "0" && fields[2] == "0" && (fields[3] == "cron" || fields[3] == "crond")
    }.map(String.init)
}

@Suite struct CronOwnerParsingTests {
    @Test func realAndEffectiveUidComeFromTheUidLine() {
        let status = "Name:\tcron\nUmask:\t0022\nState:\tS (sleeping)\nPid:\t42\nUid:\t1001\t0\t0\t0\nGid:\t1001\t1001\t1001\t1001\n"
        #expect(SchedulerProbe.uids(status: status)! == (real: 1001, effective: 0))
        #expect(SchedulerProbe.uids(status: "Name:\tcron\n") == nil)
        #expect(SchedulerProbe.uids(status: "Uid:\tx\t0\t0\t0\n") == nil)
    }
}

/// A program named `cron` started by someone else is not root's cron daemon: it must not make
/// notif move reminders into a crontab nothing reads.
@Suite(.serialized,
       .enabled(if: getuid() == 0, "needs root to start a process as a throwaway user"),
       .enabled("a root cron daemon is running (another test's?): it would make detection true whatever the owner check does") {
           rootCronDaemons().isEmpty
       })
struct CronDetectionOwnerTests {
    /// Copies /bin/sleep to a world-readable scratch directory as a file named `cron`.
    func fakeCron(in scratch: Scratch) throws -> String {
        chmod(scratch.path, 0o755)
        let path = scratch.path + "/cron"
        let copied = try sh(["cp", "/bin/sleep", path])
        guard copied.succeeded else { throw TestFailure("cp /bin/sleep: \(copied.stderrText)") }
        chmod(path, 0o755)
        return path
    }

    /// The pids of running processes whose program is `path` and whose real uid is `uid`.
    func running(_ path: String, uid: UInt32) -> [Int32] {
        ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap(Int32.init).filter { pid in
            guard let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/exe"), exe == path,
                  let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
                  let ids = SchedulerProbe.uids(status: status) else { return false }
            return ids.real == uid
        }
    }

    /// Stops the processes this test started, by pid, and waits for them to go.
    func stop(_ launcher: Process, _ path: String, uid: UInt32) {
        for pid in running(path, uid: uid) { kill(pid, SIGKILL) }
        if launcher.isRunning { kill(launcher.processIdentifier, SIGKILL) }
        launcher.waitUntilExit()
        _ = waitUntil(5) { running(path, uid: uid).isEmpty }
    }

    @Test func aRenamedSleepOfAnotherUserIsNotCronButRootsIs() throws {
        let user = try ThrowawayUser.make("notif-tcronown")
        guard let uid = UInt32(try sh(["id", "-u", user.name]).stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw TestFailure("no uid for \(user.name)")
        }
        let scratch = Scratch()
        let fake = try fakeCron(in: scratch)

        // Another user's `cron`: running, named cron, and not counted.
        let asUser = Process()
        asUser.executableURL = URL(fileURLWithPath: "/usr/sbin/runuser")
        asUser.arguments = ["-u", user.name, "--", fake, "60"]
        try asUser.run()
        defer { stop(asUser, fake, uid: uid) }
        #expect(waitUntil(10) { !running(fake, uid: uid).isEmpty }, "the user's fake cron started")
        let pid = running(fake, uid: uid).first ?? -1
        let comm = (try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8)) ?? ""
        #expect(comm == "cron\n", "the process is named cron")
        // Whatever else runs on the machine, this process is not counted.
        #expect(!SchedulerProbe.isCron(pid), "a `cron` owned by uid \(uid) is not root's cron daemon")
        let alive = SchedulerProbe.cronDaemonAlive()
        let rootCron = rootCronDaemons()
        guard rootCron.isEmpty else {
            // A real one started meanwhile (another test's): this run cannot tell.
            Issue.record("skipped: a root cron daemon started during the test: \(rootCron)", severity: .warning)
            return
        }
        #expect(!alive, "a `cron` owned by uid \(uid) is not root's cron daemon")
        #expect(!SchedulerProbe.isCron(pid))
        stop(asUser, fake, uid: uid)

        // The same program started by root counts: the check is about the owner.
        let asRoot = Process()
        asRoot.executableURL = URL(fileURLWithPath: fake)
        asRoot.arguments = ["60"]
        try asRoot.run()
        defer { stop(asRoot, fake, uid: 0) }
        #expect(waitUntil(10) { SchedulerProbe.cronDaemonAlive() }, "root's `cron` counts")
        #expect(SchedulerProbe.isCron(asRoot.processIdentifier))
    }
}
