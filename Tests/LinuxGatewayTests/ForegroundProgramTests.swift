import Glibc
@testable import LinuxGateway
import Testing

/// A program run in the foreground (the person's editor): how it ended, and what it is given.
@Suite struct ForegroundProgramTests {
    @Test func itsEndingIsSaid() {
        #expect(ForegroundProgram.run(["sh", "-c", "exit 3"]).ending == .exited(3))
        #expect(ForegroundProgram.run(["sh", "-c", "kill -TERM $$"]).ending == .signalled(SIGTERM))
        guard case .notStarted = ForegroundProgram.run(["notif-no-such-editor"]).ending else {
            Issue.record("a missing program started")
            return
        }
    }

    /// It shares this process's group (the terminal's foreground), and gets the three streams and
    /// no other descriptor, even one this process opened without close-on-exec (a lock, say).
    @Test func itRunsInThisGroupWithOnlyTheThreeStreams() throws {
        let open = Glibc.open("/dev/null", O_RDONLY)
        try #require(open > 2)
        defer { close(open) }
        let group = getpgrp()
        let check = "[ \"$(ps -o pgid= -p $$ | tr -d ' ')\" = \(group) ] || exit 4; [ -e /proc/$$/fd/\(open) ] && exit 5; exit 0"
        #expect(ForegroundProgram.run(["sh", "-c", check]).ending == .exited(0))
    }
}
