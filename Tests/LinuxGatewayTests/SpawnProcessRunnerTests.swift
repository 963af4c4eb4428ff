import Foundation
import Synchronization
import Testing
import TestSupport
@testable import LinuxGateway

/// Serialized: the two busy-program tests read one process-wide count of retries.
@Suite(.serialized) struct SpawnProcessRunnerTests {
    let runner = SpawnProcessRunner()

    @Test func capturesOutputAndStatus() throws {
        let result = try runner.run(["sh", "-c", "echo out; echo err >&2; exit 3"])
        #expect(result.stdoutText == "out\n")
        #expect(result.stderrText == "err")
        #expect(result.exitStatus == 3)
        #expect(!result.succeeded)
    }

    /// A script that prints "started", still open for writing ("Text file busy" until `fd` is closed).
    func busyScript() -> (path: String, fd: Int32) {
        let path = FileManager.default.temporaryDirectory.path + "/notif-busy-" + UUID().uuidString.prefix(8)
        let fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o755)
        #expect(fd >= 0)
        let script = Array("#!/bin/sh\necho started\n".utf8)
        #expect(write(fd, script, script.count) == script.count)
        return (path, fd)
    }

    /// A program still open for writing somewhere ("Text file busy": being installed, or held by
    /// another thread's child between fork and exec) starts once the writer lets go.
    @Test func aProgramBusyForAMomentStillStarts() throws {
        let (path, fd) = busyScript()
        defer { unlink(path) }
        // The writer lets go once the start has met the busy file (not after a guessed delay,
        // which a slow start could outlast, and then the retry would go untried).
        let retriesBefore = SpawnProcessRunner.busyRetries.load(ordering: .relaxed)
        let writer = Thread {
            _ = waitUntil(10) { SpawnProcessRunner.busyRetries.load(ordering: .relaxed) > retriesBefore }
            close(fd)
        }
        writer.start()
        let result = try runner.run([path])
        #expect(SpawnProcessRunner.busyRetries.load(ordering: .relaxed) > retriesBefore, "the start never met the busy file")
        #expect(result.stdoutText == "started\n" && result.exitStatus == 0, "\(result.stderrText)")
    }

    /// While one start waits for a busy program, other programs start and finish: the wait is
    /// outside the lock that records running children (which a quitting page also takes).
    @Test func anotherProgramStartsWhileOneWaitsForABusyProgram() throws {
        let (path, fd) = busyScript()
        defer { unlink(path) }
        let retriesBefore = SpawnProcessRunner.busyRetries.load(ordering: .relaxed)
        // nil until the busy start returns; then what it printed, or its error.
        let busy = Mutex<String?>(nil)
        let starter = Thread { [runner] in
            let said: String
            do { said = try runner.run([path]).stdoutText } catch { said = "\(error)" }
            busy.withLock { $0 = said }
        }
        starter.start()
        // The busy start is in its retry once the count moves.
        #expect(waitUntil(10) { SpawnProcessRunner.busyRetries.load(ordering: .relaxed) > retriesBefore })
        let other = try runner.run(["echo", "meanwhile"], timeout: 5)
        let stillBusy = busy.withLock { $0 == nil }
        close(fd)
        #expect(other.stdoutText == "meanwhile\n")
        #expect(stillBusy, "the other program waited until the busy one started")
        #expect(waitUntil(10) { busy.withLock { $0 != nil } })
        #expect(busy.withLock { $0 } == "started\n")
    }

    @Test func feedsStdinLargerThanAPipeBuffer() throws {
        let input = [UInt8](repeating: UInt8(ascii: "x"), count: 1 << 20)
        let result = try runner.run(["wc", "-c"], input: input)
        #expect(result.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines) == "1048576")
    }

    @Test func stdinIsDevNullWhenNoInput() throws {
        let result = try runner.run(["cat"], timeout: 5)
        #expect(result.succeeded && result.stdout.isEmpty)
    }

    @Test func environmentChangesApplyOnlyToTheChild() throws {
        let result = try runner.run(["sh", "-c", "echo \"$NOTIF_X|${HOME:-unset}\""], input: nil,
                                    environment: ["NOTIF_X": "set", "HOME": nil], timeout: 5)
        #expect(result.stdoutText == "set|unset\n")
    }

    /// The auth token notif may be given in its environment never reaches a program it starts,
    /// even passed on explicitly. (Inheriting it is checked end to end, on curl's environment:
    /// setenv here would race with other tests starting processes.)
    @Test func theAuthTokenVariableIsWithheldFromChildren() throws {
        let script = "echo \"${NOTIF_AUTH_TOKEN:-none}|$NOTIF_X\""
        let passed = try runner.run(["sh", "-c", script], input: nil,
                                    environment: [SpawnProcessRunner.authTokenVariable: "secret-passed", "NOTIF_X": "x"], timeout: 5)
        #expect(passed.stdoutText == "none|x\n")
    }

    /// A runner that only records (the protocol's default for a stdin file) fails when the file
    /// cannot be read, and never runs the program with an empty stdin instead.
    @Test func aStdinFileThatCannotBeReadFailsTheRunInTheDefaultToo() {
        let recorder = RecordingRunner { _ in ProcessResult(exitStatus: 0) }
        #expect(throws: SpawnError.self) {
            try recorder.run(["crontab", "-"], stdinFile: "/nonexistent/crontab.new", environment: [:], timeout: 5)
        }
        #expect(recorder.calls.isEmpty)
    }

    @Test func aHangingProgramIsKilledAtTheDeadline() throws {
        let start = Date()
        let result = try runner.run(["sleep", "30"], timeout: 0.3)
        #expect(result.timedOut)
        #expect(Date().timeIntervalSince(start) < 5)
        #expect(result.failureSummary.contains("did not finish"))
    }

    @Test func aGrandchildHoldingThePipesDoesNotBlockUs() throws {
        let start = Date()
        let result = try runner.run(["sh", "-c", "sleep 20 & echo started"], timeout: 10)
        #expect(result.succeeded)
        #expect(result.stdoutText == "started\n")
        #expect(Date().timeIntervalSince(start) < 5)
    }

    @Test func signalsAreReported() throws {
        let result = try runner.run(["sh", "-c", "kill -TERM $$"])
        #expect(result.signal == 15 && result.exitStatus == nil)
    }

    @Test func ignoredSIGPIPEIsNotInheritedByChildren() throws {
        signal(SIGPIPE, SIG_IGN)
        // With SIGPIPE ignored, `yes` would loop on EPIPE errors instead of dying.
        let result = try runner.run(["sh", "-c", "yes | head -c 10 >/dev/null; echo done"], timeout: 10)
        #expect(result.stdoutText == "done\n")
    }

    @Test func aMissingProgramIsNamed() {
        #expect(throws: SpawnError.self) { try runner.run(["notif-no-such-program"]) }
        do {
            _ = try runner.run(["notif-no-such-program"])
        } catch {
            #expect(error.notFound)
            #expect(error.description.contains("notif-no-such-program is not installed"))
        }
    }
}

@Suite struct SpawnProcessRunnerResourceTests {
    @Test func noDescriptorIsLeftOpen() throws {
        func open() -> Int { (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? -1 }
        // Other tests run in parallel and open files too: compare over many runs, with slack.
        let before = open()
        for _ in 0..<300 { _ = try SpawnProcessRunner().run(["true"]) }
        for _ in 0..<100 { _ = try SpawnProcessRunner().run(["cat"], input: Array("x".utf8)) }
        #expect(open() - before < 50, "descriptors grew from \(before) to \(open())")
    }
}

@Suite struct SpawnProcessRunnerStdinFileTests {
    @Test func aFileCanBeTheChildsStdin() throws {
        let scratch = Scratch()
        let path = scratch.path + "/in"
        let text = String(repeating: "line of a long crontab\n", count: 20_000)
        _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
        let result = try SpawnProcessRunner().run(["cat"], stdinFile: path, environment: [:], timeout: 10)
        #expect(result.succeeded && result.stdoutText == text)
    }
}
