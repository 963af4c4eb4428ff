import Testing
@testable import LinuxGateway

/// Which crontab lines are assignments, as cron reads them, and which of the user's notif's
/// block gives back.
@Suite struct CronEnvironmentTests {
    func name(_ line: String) -> String? { CronEnvironment.assignedName(ArraySlice(line.utf8)).map { String(decoding: $0, as: UTF8.self) } }

    @Test func assignmentsAreReadAsCronReadsThem() {
        #expect(name("SHELL=/bin/false") == "SHELL")
        #expect(name("  PATH = /nonexistent\r") == "PATH")
        #expect(name("\"MAILTO\"=\"\"") == "MAILTO")
        #expect(name("'SHELL' = x") == "SHELL")
        #expect(name("MAILTO=\"\"\r") == "MAILTO")
        #expect(name("# SHELL=/bin/false") == nil)
        #expect(name("0 9 * * * SHELL=/bin/false cmd") == nil)
        #expect(name("@reboot x=y") == nil)
        #expect(name("") == nil && name("   ") == nil)
        #expect(name("FOO") == nil)
        #expect(name("\"A=B\"=c") == nil, "cron refuses an = in a quoted name")
    }

    @Test func theUsersLastAssignmentsAboveAreGivenBackOutsideNotifsBlocks() {
        let above = "SHELL=/bin/bash\nPATH=/a\n# x\nSHELL = /usr/bin/fish\r\n"
            + "# BEGIN notif managed block 0123abcd: changed by `notif set` and `notif apply`; edits here are replaced\nPATH=/inside\n"
            + "# END notif managed block 0123abcd\n"
        #expect(CronEnvironment.restoring(above: Array(above.utf8)) == [Array("SHELL = /usr/bin/fish\r".utf8), Array("PATH=/a".utf8)])
        #expect(CronEnvironment.restoring(above: Array("MAILTO=\"\"\n".utf8)).isEmpty, "cron's defaults are what the block sets")
    }
}
