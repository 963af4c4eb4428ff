import Foundation
import Testing
@testable import Storage

/// The trust rule (OpenSSH's StrictModes): the path and every directory above it belong to root
/// or the user and are writable by neither group nor others; links are judged where they lead.
@Suite struct TrustedPathTests {
    @Test func aPathUnderTmpFailsHoweverPrivateItIs() throws {
        let dir = TempDir()
        chmod(dir.path, 0o700)
        let problem = TrustedPath.problem(dir.path + "/notif")
        #expect(problem == "/tmp may be written by every user, mode 1777, and the sticky bit does not stop them from making it again once it is gone",
                "\(String(describing: problem))")
    }

    @Test func theUsersOrRootsFilesInClosedDirectoriesPass() throws {
        let dir = TrustedDir()
        let program = dir.path + "/bin/notif"
        try FileManager.default.createDirectory(atPath: dir.path + "/bin", withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: program, contents: Data()))
        chmod(dir.path + "/bin", 0o755)
        chmod(program, 0o755)
        #expect(TrustedPath.problem(program) == nil)
        #expect(TrustedPath.problem("/usr/bin/env") == nil && TrustedPath.problem("/") == nil)
        chmod(dir.path + "/bin", 0o775)
        #expect(TrustedPath.problem(program) == "\(dir.path)/bin may be written by its group, mode 775")
        chmod(dir.path + "/bin", 0o757)
        #expect(TrustedPath.problem(program) == "\(dir.path)/bin may be written by every user, mode 757")
        chmod(dir.path + "/bin", 0o755)
        chmod(program, 0o775)
        #expect(TrustedPath.problem(program) == "\(program) may be written by its group, mode 775", "the file itself too")
        chmod(program, 0o755)
        if getuid() == 0 {
            chown(program, 54321, 54321)
            #expect(TrustedPath.problem(program) == "\(program) belongs to 54321, uid 54321, not to you or root")
            #expect(TrustedPath.problem(program, uid: 54321) == nil, "the user's own file, in root's directories")
        }
    }

    @Test func linksAreJudgedWhereTheyLeadAndAMissingTailPasses() throws {
        let dir = TrustedDir()
        let tmp = TempDir()
        try FileManager.default.createDirectory(atPath: dir.path + "/real", withIntermediateDirectories: true)
        chmod(dir.path + "/real", 0o755)
        try FileManager.default.createSymbolicLink(atPath: dir.path + "/near", withDestinationPath: "real")
        try FileManager.default.createSymbolicLink(atPath: dir.path + "/far", withDestinationPath: tmp.path)
        try FileManager.default.createSymbolicLink(atPath: dir.path + "/loop", withDestinationPath: "loop")
        #expect(TrustedPath.problem(dir.path + "/near/notif") == nil)
        #expect(TrustedPath.problem(dir.path + "/far/notif")?.hasPrefix("/tmp may be written by every user") == true)
        #expect(TrustedPath.problem(dir.path + "/loop/x") == "\(dir.path)/loop is a link notif cannot follow")
        #expect(TrustedPath.problem(dir.path + "/not/there/yet") == nil, "only root or the user can make the rest")
        #expect(TrustedPath.problem(dir.path + "/real/../near/./notif") == nil)
        #expect(TrustedPath.problem("relative/notif") == "relative/notif is not an absolute path")
    }
}
