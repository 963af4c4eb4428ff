import Foundation
import Testing

/// A notif package installed before the tests ran is someone's: the package tests leave it alone.
let notifPackageInstalledBefore = (try? run(["dpkg-query", "-W", "-f=${Status}", "notif"], environment: ["PATH": "/usr/bin:/bin"]))?
    .stdout.contains("ok installed") ?? false

/// What `make deb` (or `make test`) built from debian/: the files in dist/.
enum DebianPackage {
    static let apt = ["PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "DEBIAN_FRONTEND": "noninteractive"]
    /// The version at the top of debian/changelog.
    static var version: String {
        get throws {
            let changelog = try String(contentsOfFile: packageRoot + "/debian/changelog", encoding: .utf8)
            guard let first = changelog.split(separator: "\n").first, let open = first.firstIndex(of: "("),
                  let close = first.firstIndex(of: ")") else { throw E2EFailure("debian/changelog has no version line") }
            return String(first[first.index(after: open)..<close])
        }
    }
    static var arch: String {
        get throws { try run(["dpkg", "--print-architecture"], environment: apt).stdout.trimmingCharacters(in: .whitespacesAndNewlines) }
    }

    /// dist/NAME_VERSION_ARCH.EXT, built after the release binary (a stale package would test old code).
    static func file(_ name: String = "notif", _ ext: String = "deb") throws -> String {
        let path = packageRoot + "/dist/\(name)_\(try version)_\(try arch).\(ext)"
        let modified = { (p: String) in (try? FileManager.default.attributesOfItem(atPath: p)[.modificationDate] as? Date) ?? nil }
        guard let built = modified(path) else { throw E2EFailure("no \(path): run `make deb` (make test builds it)") }
        guard let binary = modified(try NotifBinary.release()), built >= binary else {
            throw E2EFailure("\(path) is older than the release binary: run `make deb` again")
        }
        return path
    }

    /// apt-get with the dpkg lock waited for; nonzero exits are the caller's to judge.
    static func aptGet(_ arguments: [String]) throws -> RunResult {
        try run(["apt-get", "-y", "-q", "--no-install-recommends", "-o", "DPkg::Lock::Timeout=120"] + arguments, environment: apt, timeout: 300)
    }

    static func installedVersion() throws -> String? {
        let query = try run(["dpkg-query", "-W", "-f=${Status} ${Version}", "notif"], environment: apt)
        guard query.status == 0, query.stdout.hasPrefix("install ok installed ") else { return nil }
        return String(query.stdout.dropFirst("install ok installed ".count))
    }

    /// Whatever happened: no notif package on the machine, nor its configuration.
    static func purge() { _ = try? aptGet(["purge", "notif"]) }
}

/// The package from debian/ for real: lintian on it and on the source package, then installed,
/// upgraded to from 0.1.0 and purged with apt. It never touches a notif installed by `make
/// install` in /usr/local, and the machine is left without the package whatever happens.
@Suite(.enabled(if: isRoot && !notifPackageInstalledBefore, "needs root, and no notif package installed already"), .serialized)
struct DebianPackageTests {
    let apt = DebianPackage.apt

    /// No lintian error or warning, and no override, on the binary packages and the source
    /// package; dependencies come from what the binary links; stripped, with its build id,
    /// whose debug symbols are in notif-dbgsym.
    @Test(.hangGuard)
    func thePackagesPassLintianAndCarryWhatTheBinaryLinks() throws {
        let sandbox = Sandbox()
        let changes = try DebianPackage.file("notif", "changes")
        let deb = try DebianPackage.file()
        let lintian = try run(["lintian", "--fail-on", "error,warning", changes], environment: apt, timeout: 240)
        #expect(lintian.status == 0 && !lintian.stdout.contains("E: ") && !lintian.stdout.contains("W: "), "\(lintian)")

        // The source package, made from the files of this tree as they are now.
        let version = try DebianPackage.version
        let tree = sandbox.path + "/notif-\(version)"
        try FileManager.default.createDirectory(atPath: tree, withIntermediateDirectories: false)
        let files = try run(["git", "-C", packageRoot, "ls-files", "-z", "--cached", "--others", "--exclude-standard"], environment: apt)
        #expect(files.status == 0, "\(files)")
        let copied = try run(["sh", "-c", "cd \"$0\" && xargs -0 cp --parents -t \"$1\"", packageRoot, tree], environment: apt,
                             input: files.stdout.split(separator: "\0").filter { FileManager.default.fileExists(atPath: packageRoot + "/" + $0) }
                                .joined(separator: "\0"))
        try #require(copied.status == 0, "\(copied)")
        let source = try run(["sh", "-c", "cd \"$0\" && dpkg-source -b \"notif-$1\"", sandbox.path, version], environment: apt)
        #expect(source.status == 0, "\(source)")
        let dsc = sandbox.path + "/notif_\(version).dsc"
        let lintSource = try run(["lintian", "--fail-on", "error,warning", dsc], environment: apt, timeout: 240)
        #expect(lintSource.status == 0 && !lintSource.stdout.contains("E: ") && !lintSource.stdout.contains("W: "), "\(lintSource)")
        let overrides = try run(["sh", "-c", "ls \"$0\"/debian | grep -i lintian-overrides || true", packageRoot], environment: apt)
        #expect(overrides.stdout.isEmpty, "an overrides file: \(overrides.stdout)")

        // Depends from dpkg-shlibdeps: Debian's C libraries, with the versions the binary needs.
        let depends = try run(["dpkg-deb", "-f", deb, "Depends"], environment: apt).stdout
        for library in ["libc6 (>= ", "libncursesw6 (>= ", "libtinfo6 (>= ", "libstdc++6 (>= ", "libgcc-s1 (>= ", "libnotify-bin", "tzdata"] {
            #expect(depends.contains(library), "\(library) missing from Depends: \(depends)")
        }
        #expect(!depends.contains("${"), "\(depends)")

        // Stripped, with a build id; the debug symbols under that id in notif-dbgsym.
        let unpacked = sandbox.path + "/unpacked"
        #expect(try run(["dpkg-deb", "-x", deb, unpacked], environment: apt).status == 0)
        let binary = unpacked + "/usr/bin/notif"
        let sections = try run(["readelf", "-SW", binary], environment: apt).stdout
        #expect(!sections.contains(".debug_") && !sections.contains(".symtab"), "not stripped: \(sections)")
        let notes = try run(["readelf", "-n", binary], environment: apt).stdout
        let id = notes.split(separator: "\n").first { $0.contains("Build ID:") }?.split(separator: " ").last.map(String.init) ?? ""
        #expect(id.count == 40, "no build id: \(notes)")
        let symbols = try run(["dpkg-deb", "-c", try DebianPackage.file("notif-dbgsym")], environment: apt).stdout
        #expect(id.count == 40 && symbols.contains("./usr/lib/debug/.build-id/\(id.prefix(2))/\(id.dropFirst(2)).debug"), "\(symbols)")
        let contents = try run(["dpkg-deb", "-c", deb], environment: apt).stdout
        #expect(!contents.contains("lintian/overrides"), "\(contents)")
    }

    /// Installed on a machine without notif: the program, its man page, desktop entry, icon,
    /// completions and docs in place, working for a fresh user; a purge leaves no file of it
    /// (the user's own files stay: a package never touches homes).
    @Test(.hangGuard)
    func aFreshInstallWorksAndAPurgeLeavesNoFileOfIt() throws {
        let deb = try DebianPackage.file()
        let local = "/usr/local/bin/notif"
        let localBefore = try? FileManager.default.attributesOfItem(atPath: local)
        defer { DebianPackage.purge() }
        let install = try DebianPackage.aptGet(["install", deb])
        try #require(install.status == 0, "\(install)")
        #expect(try DebianPackage.installedVersion() == DebianPackage.version)
        let files = try run(["dpkg-query", "-L", "notif"], environment: apt).stdout.split(separator: "\n").map(String.init)
        for file in ["/usr/bin/notif", "/usr/share/man/man1/notif.1.gz", "/usr/share/applications/notif.desktop",
                     "/usr/share/icons/hicolor/scalable/apps/notif.svg", "/usr/share/doc/notif/copyright", "/usr/share/doc/notif/changelog.gz",
                     "/usr/share/doc/notif/README.Debian", "/usr/share/bash-completion/completions/notif",
                     "/usr/share/zsh/vendor-completions/_notif", "/usr/share/fish/vendor_completions.d/notif.fish"] {
            #expect(files.contains(file), "\(file) is not in the package: \(files)")
        }

        let user = try TestUser.make("notif-tr24-deb")
        defer { deleteUser(user) }
        let status = try user.run(["/usr/bin/notif", "status"], ["TZ": "Europe/Berlin"])
        #expect(status.status == 0 && status.stdout.contains("Tips & Updates:     off") && status.stdout.contains("Next reminder:"), "\(status)")
        let version = try user.run(["/usr/bin/notif", "--version"])
        #expect(version.stdout == "notif \(try DebianPackage.version)\n", "the program and debian/changelog disagree: \(version)")
        #expect(try user.run(["/usr/bin/notif", "permission", "allow"]).status == 0)
        let validate = try run(["desktop-file-validate", "/usr/share/applications/notif.desktop"], environment: apt)
        #expect(validate.status == 0 && validate.stderr.isEmpty && validate.stdout.isEmpty, "\(validate)")

        let purge = try DebianPackage.aptGet(["purge", "notif"])
        #expect(purge.status == 0, "\(purge)")
        #expect(try DebianPackage.installedVersion() == nil)
        let left = files.filter { path in
            var info = stat()
            // Directories the package shares with others (/usr/share/icons…) stay; its own files and its doc directory go.
            return lstat(path, &info) == 0 && ((info.st_mode & S_IFMT) != S_IFDIR || path == "/usr/share/doc/notif")
        }
        #expect(left.isEmpty, "left behind: \(left)")
        #expect(try run(["dpkg-query", "-W", "-f=${Status}", "notif"], environment: apt).stdout.contains("not-installed")
                || (try run(["dpkg-query", "-W", "notif"], environment: apt).status != 0))
        #expect(user.read(user.settingsPath)?.contains("\"permission\"") == true, "the purge touched the user's settings")
        // A notif from `make install` was not touched.
        let localAfter = try? FileManager.default.attributesOfItem(atPath: local)
        #expect(localBefore?[.modificationDate] as? Date == localAfter?[.modificationDate] as? Date
                && localBefore?[.systemFileNumber] as? Int == localAfter?[.systemFileNumber] as? Int)
    }

    /// From the 0.1.0 package (made by its own build script, `Tests/Fixtures/deb-0.1.0`) with the
    /// reminder on in a user's crontab, to this one: the settings and the entries are kept byte
    /// for byte, status finds them in sync, the daily line run as cron runs it shows the reminder,
    /// and the files only 0.1.0 had (its lintian overrides) are gone.
    @Test(.hangGuard)
    func anUpgradeFrom010KeepsTheSettingsAndTheEntriesFiring() throws {
        let sandbox = Sandbox()
        chmod(sandbox.path, 0o755)   // apt's sandbox user reads the .deb
        let deb = try DebianPackage.file()
        let built = try run([packageRoot + "/Tests/Fixtures/deb-0.1.0/build-deb", try NotifBinary.release(), sandbox.path], environment: apt)
        try #require(built.status == 0, "\(built)")
        let old = built.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        defer { DebianPackage.purge() }
        let first = try DebianPackage.aptGet(["install", old])
        try #require(first.status == 0, "\(first)")
        #expect(try DebianPackage.installedVersion() == "0.1.0")
        #expect(FileManager.default.fileExists(atPath: "/usr/share/lintian/overrides/notif"))

        let user = try TestUser.make("notif-tr24-upgrade")
        defer { deleteUser(user) }
        let display = try VirtualDisplay()
        let session = try DesktopSession(user: user, display: display)
        // The user's zone is one where it is 09:01 now, so the daily line is on time.
        let env = session.environment.merging(["NOTIF_SCHEDULER": "cron", "TZ": ZoneShift.whereItIs(9, 1)]) { a, _ in a }
        #expect(try user.run(["/usr/bin/notif", "permission", "grant"], env).status == 0)
        let on = try user.run(["/usr/bin/notif", "set", "tips-and-updates", "on"], env)
        #expect(on.status == 0 && on.stdout.contains("with cron"), "\(on)")
        try user.entriesFromYesterday()   // on since yesterday: today's 09:00 is the line's
        let settings = user.read(user.settingsPath)
        let crontab = try user.crontab()
        #expect(crontab.contains("/usr/bin/notif deliver --quiet tips-and-updates"), "\(crontab)")

        let upgrade = try DebianPackage.aptGet(["install", deb])
        try #require(upgrade.status == 0, "\(upgrade)")
        #expect(try DebianPackage.installedVersion() == DebianPackage.version)
        #expect(!FileManager.default.fileExists(atPath: "/usr/share/lintian/overrides/notif"), "0.1.0's overrides are left")
        #expect(user.read(user.settingsPath) == settings, "the settings changed")
        #expect(try user.crontab() == crontab, "the entries changed")
        let status = try user.run(["/usr/bin/notif", "status"], env)
        #expect(status.stdout.contains("In sync:            yes") && status.stdout.contains("Installed:          tips-and-updates"), "\(status)")

        // The daily line, exactly as cron runs it (/bin/sh -c, cron's environment), as the user.
        let daily = crontab.split(separator: "\n").first { !$0.hasPrefix("#") && !$0.hasPrefix("@") && !CronLine.isSetting($0) }
            .map { NastyNames.cronCommand(String($0.split(separator: " ", maxSplits: 5).last!)) } ?? ""
        let ran = try run(["/usr/sbin/runuser", "-u", user.name, "--", "/usr/bin/env", "-i", "HOME=" + user.home, "LOGNAME=" + user.name,
                           "SHELL=/bin/sh", "PATH=/usr/bin:/bin", "/bin/sh", "-c", daily], environment: apt)
        #expect(ran.status == 0 && ran.stdout.isEmpty && ran.stderr.isEmpty, "\(daily): \(ran)")
        #expect(try session.shown().map(\.summary) == ["Tips & Updates"])
        let log = user.read(user.stateDir + "/deliveries.jsonl") ?? ""
        #expect(log.contains("\"kind\":\"scheduled\"") && log.contains("\"outcome\":\"delivered\""), "\(log)")
        withExtendedLifetime(display) {}
    }
}

/// The licence: LICENSE at the root is the MIT License, and the package's copyright file is a
/// machine-readable (DEP-5) file granting the same terms, word for word.
struct PackageCopyrightTests {
    @Test func theCopyrightFileIsDEP5WithTheLicenceOfLICENSE() throws {
        let licence = try String(contentsOfFile: packageRoot + "/LICENSE", encoding: .utf8)
        let copyright = try String(contentsOfFile: packageRoot + "/debian/copyright", encoding: .utf8)
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
