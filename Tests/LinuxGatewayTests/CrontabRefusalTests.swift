import Testing
@testable import LinuxGateway

/// crontab's own line numbers, as measured with Debian's `crontab -` (cron 3.0pl1-162): one less
/// than the line for a fault inside a line, the line's own for a line too short for its fields.
@Suite struct CrontabRefusalTests {
    func line(_ stderr: String, _ table: String) -> Int? { CrontabRefusal(stderr: stderr, table: Array(table.utf8))?.line }

    @Test func crontabsNumbersPointAtTheRealLine() {
        #expect(line("\"-\":0: bad minute\nerrors in crontab file, can't install.\n", "x 5 * * * /bin/true\n") == 1)
        #expect(line("\"-\":1: bad day-of-week\n", "# a\n0 5 * * 9 /bin/x\n") == 2)
        #expect(line("\"-\":1: bad time specifier\n", "# a\n@bogus /bin/x\n") == 2)
        #expect(line("\"-\":2: bad day-of-week\n", "# a\n0 5 * *\n") == 2)
        #expect(line("\"-\":2: bad day-of-month\n", "# a\n0 5\n# b\n") == 2)
        #expect(line("\"-\":2: bad minute\n", "# a\nFOO\n# b\n") == 2)
        #expect(line("\"-\":1: bad minute\n", "# a\nFOO=\n# b\n") == 2)
        #expect(line("\"-\":5: bad minute\n", "0 5 * * * a\n0 5 * * * a\n# c\n\n0 5 * * * a\nx 5 * * * a\n") == 6)
        #expect(line("\"-\":2: bad minute\n", "0 5 * * * /bin/x\nx\n") == 2)
    }

    @Test func otherFailuresNameNoLine() {
        #expect(CrontabRefusal(stderr: "new crontab file is missing newline before EOF, can't install.\n", table: []) == nil)
        #expect(CrontabRefusal(stderr: "You (x) are not allowed to use this program (crontab)\n", table: []) == nil)
        #expect(CrontabRefusal(stderr: "\"-\":2: bad minute\n", table: Array("0 5 * * * a\n0 5 * * * a\nx\n".utf8))?.reason == "bad minute")
    }
}
