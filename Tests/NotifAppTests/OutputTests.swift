import Glibc
@testable import NotifApp
import Testing

@Suite struct OutputTests {
    /// What `Output.write` puts on a pipe.
    private func written(_ text: String) -> String {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { Issue.record("pipe failed"); return "" }
        defer { close(fds[0]) }
        Output.write(fds[1], text)
        close(fds[1])
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = read(fds[0], &buffer, buffer.count)
            if n <= 0 { break }
            bytes += buffer[0..<n]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test func controlCharactersReachTheTerminalOnlyAsEscapes() {
        #expect(written("a\u{1B}]52;c;aGk=\u{07}b\u{1B}[2J\n") == "a\\u{1B}]52;c;aGk=\\u{7}b\\u{1B}[2J\n")
        #expect(written("bell\u{7F} c1\u{9B}\n") == "bell\\u{7F} c1\\u{9B}\n")
    }

    @Test func newlinesAndTabsLayOutTextUnchanged() {
        #expect(written("one\ttwo\nthree\n") == "one\ttwo\nthree\n")
    }

    @Test func warningsAndErrorsGoToStderrWithTheirPrefix() {
        let captured = CapturedOutput()
        captured.output.warn("w")
        captured.output.error("e")
        captured.output.line("l")
        #expect(captured.err == "notif: warning: w\nnotif: e\n")
        #expect(captured.out == "l\n")
    }
}
