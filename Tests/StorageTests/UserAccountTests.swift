import Glibc
import Testing
@testable import Storage

/// Account lookups go through NSS (getpwuid_r), as every program on the machine does.
@Suite struct UserAccountTests {
    @Test func rootIsFoundWithItsHome() {
        #expect(UserAccount.of(uid: 0) == UserAccount(uid: 0, name: "root", home: "/root"))
        #expect(Posix.userName(0) == "root")
    }

    @Test func anUnknownUidIsItsNumber() {
        let unknown: UInt32 = 3_999_999
        #expect(UserAccount.of(uid: unknown) == nil)
        #expect(Posix.userName(unknown) == "3999999")
    }

    @Test func theCurrentUserIsTheDatabasesEntry() throws {
        let me = try #require(UserAccount.of(uid: getuid()))
        let current = Posix.currentUser()
        #expect(current.uid == getuid() && current.name == me.name && current.home == me.home)
    }
}
