import Foundation
import Testing

/// A notif package installed before the tests ran is someone's: the package test leaves it alone.
let notifPackageInstalledBefore = (try? run(["dpkg-query", "-W", "-f=${Status}", "notif"], environment: ["PATH": "/usr/bin:/bin"]))?
    .stdout.contains("ok installed") ?? false

/// `make deb`'s package, installed with apt and removed again, for real. It never touches a
/// notif installed by `make install` in /usr/local, and the package is removed whatever happens.
@Suite(.enabled(if: isRoot && !notifPackageInstalledBefore, "needs root, and no notif package installed already"))
struct DebianPackageTests {
    static let apt = ["PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "DEBIAN_FRONTEND": "noninteractive"]

    @Test(.timeLimit(.minutes(5)))
    func theDebPassesLintianInstallsWorksForAFreshUserAndRemovesEveryFile() throws {
        let sandbox = Sandbox()
        chmod(sandbox.path, 0o755)   // apt's sandbox user reads the .deb
        let built = try run([packageRoot + "/scripts/build-deb", try NotifBinary.release(), sandbox.path], environment: Self.apt)
        #expect(built.status == 0, "\(built)")
        let deb = built.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(deb.hasSuffix("/notif_0.1.0_\(try run(["dpkg", "--print-architecture"], environment: Self.apt).stdout.trimmingCharacters(in: .whitespacesAndNewlines)).deb"), "\(deb)")
        let lintian = try run(["lintian", "--fail-on", "error", deb], environment: Self.apt, timeout: 180)
        #expect(lintian.status == 0 && !lintian.stdout.contains("E: "), "\(lintian)")
        let contents = try run(["dpkg-deb", "-c", deb], environment: Self.apt).stdout
        for file in ["./usr/bin/notif", "./usr/share/man/man1/notif.1.gz", "./usr/share/applications/notif.desktop",
                     "./usr/share/icons/hicolor/scalable/apps/notif.svg", "./usr/share/doc/notif/copyright", "./usr/share/doc/notif/changelog.gz",
                     "./usr/share/bash-completion/completions/notif", "./usr/share/zsh/vendor-completions/_notif",
                     "./usr/share/fish/vendor_completions.d/notif.fish",
                     "./usr/share/doc/notif/README.Debian"] {
            #expect(contents.contains(" " + file + "\n"), "\(file) is not in the package:\n\(contents)")
        }

        let local = "/usr/local/bin/notif"
        let localBefore = try? FileManager.default.attributesOfItem(atPath: local)
        defer {
            // Whatever happened above: the machine without the package again.
            _ = try? run(["apt-get", "remove", "-y", "-q", "-o", "DPkg::Lock::Timeout=120", "notif"], environment: Self.apt, timeout: 300)
        }
        let install = try run(["apt-get", "install", "-y", "-q", "--no-install-recommends", "-o", "DPkg::Lock::Timeout=120", deb],
                              environment: Self.apt, timeout: 300)
        #expect(install.status == 0, "\(install)")
        let files = try run(["dpkg-query", "-L", "notif"], environment: Self.apt).stdout.split(separator: "\n").map(String.init)
        #expect(files.contains("/usr/bin/notif"), "\(files)")

        let user = try TestUser.make("notif-tr14-deb")
        defer { deleteUser(user) }
        let status = try user.run(["/usr/bin/notif", "status"], ["TZ": "Europe/Berlin"])
        #expect(status.status == 0 && status.stdout.contains("Tips & Updates:     off") && status.stdout.contains("Next reminder:"), "\(status)")
        let version = try user.run(["/usr/bin/notif", "--version"])
        #expect(version.stdout == "notif 0.1.0\n", "\(version)")
        let validate = try run(["desktop-file-validate", "/usr/share/applications/notif.desktop"], environment: Self.apt)
        #expect(validate.status == 0 && validate.stderr.isEmpty && validate.stdout.isEmpty, "\(validate)")

        let remove = try run(["apt-get", "remove", "-y", "-q", "-o", "DPkg::Lock::Timeout=120", "notif"], environment: Self.apt, timeout: 300)
        #expect(remove.status == 0, "\(remove)")
        let left = files.filter { path in
            var info = stat()
            // Directories the package shares with others (/usr/share/icons…) stay; its own files and its doc directory go.
            return lstat(path, &info) == 0 && ((info.st_mode & S_IFMT) != S_IFDIR || path == "/usr/share/doc/notif")
        }
        #expect(left.isEmpty, "left behind: \(left)")
        #expect(try run(["dpkg-query", "-W", "-f=${Status}", "notif"], environment: Self.apt).stdout.contains("ok installed") == false)
        // A notif from `make install` was not touched.
        let localAfter = try? FileManager.default.attributesOfItem(atPath: local)
        #expect(localBefore?[.modificationDate] as? Date == localAfter?[.modificationDate] as? Date
                && localBefore?[.systemFileNumber] as? Int == localAfter?[.systemFileNumber] as? Int)
    }
}

/// The licence: LICENSE at the root is the MIT License, and the package's copyright file is a
/// machine-readable (DEP-5) file granting the same terms, word for word.
struct PackageCopyrightTests {
    @Test func theCopyrightFileIsDEP5WithTheLicenceOfLICENSE() throws {
        let licence = try String(contentsOfFile: packageRoot + "/LICENSE", encoding: .utf8)
        let copyright = try String(contentsOfFile: packageRoot + "/packaging/deb/copyright", encoding: .utf8)
        #expect(licence.hasPrefix("MIT License\n\nCopyright 2026 The notif developers\n"), "\(licence)")
        let paragraphs = copyright.components(separatedBy: "\n\n")
        #expect(paragraphs.first?.hasPrefix("Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/\n") == true)
        #expect(paragraphs.contains { $0.hasPrefix("Files: *\nCopyright: 2026 The notif developers\nLicense: Expat") }, "\(copyright)")
        // The standalone licence paragraph: the text of LICENSE after its copyright line, one space
        // in front of each line and `.` for blank lines.
        guard let text = paragraphs.first(where: { $0.hasPrefix("License: Expat\n") }) else {
            Issue.record("no standalone License: Expat paragraph:\n\(copyright)")
            return
        }
        let grant = licence.trimmingCharacters(in: .newlines).components(separatedBy: "\n")
            .drop { !$0.hasPrefix("Permission is hereby granted") }
            .map { $0.isEmpty ? " ." : " " + $0 }.joined(separator: "\n")
        let body = String(text.dropFirst("License: Expat\n".count)).trimmingCharacters(in: .newlines)
        #expect(body == grant, "the copyright file's licence differs from LICENSE:\n\(body)\n---\n\(grant)")
    }
}
