import Foundation
import TestSupport
import LinuxGateway
import Testing

/// Directory names that break naive quoting: for the shell, for cron's `%` and backslash
/// handling, and for systemd's specifiers, variables and C escapes.
enum NastyNames {
    static func all(canary: String) -> [String] {
        [
            "sp ace",
            "it's",
            #"say "hi""#,
            "$HOME $(touch \(canary)) `touch \(canary)`",
            #"100% %s \% %%"#,
            "semi;colon && amp | pipe > out",
            #"back\slash \\double \%"#,
            #"trailing\"#,
            "tab\tand\u{1B}[31mesc",
            "-dash",
            "ünïcødé 日本 😀",
            "*glob?[x]{a,b}",
            "~tilde #hash !bang",
            "a=b c==d =",
        ]
    }

    /// The fixed names, then (in a soak) random ones made of the same troublemakers.
    static func forRun(canary: String, seed: UInt64, soakCount: Int) -> [String] {
        var random = SeededRandom(seed: seed)
        let pieces = Array(" '\"$`%;\\&|<>*?[]{}()~#!=:,.-_\té日😀\u{1B}\u{7F}\u{202E}").map(String.init)
            + ["$(", "${", "%%", "\\%", "\\\\", "'\\''", "$HOME", "%n"]
        var names = all(canary: canary)
        for _ in 0..<Soak.count(short: 0, long: soakCount) {
            var name = ""
            for _ in 0..<Int.random(in: 1...12, using: &random) { name += pieces.randomElement(using: &random)! }
            if name == "." || name == ".." { name += "x" }
            names.append(name)
        }
        return names
    }

    /// What cron hands to /bin/sh for a crontab line's command (Debian's cron 3.0pl1): `\%`
    /// becomes `%`, `\\` becomes `\`, a bare `%` ends the command (the rest is stdin), and a
    /// backslash before anything else stays.
    static func cronCommand(_ text: String) -> String {
        var out = ""
        var escaped = false
        for character in text {
            if escaped {
                if character != "%" && character != "\\" { out.append("\\") }
                out.append(character)
                escaped = false
                continue
            }
            if character == "\\" {
                escaped = true
                continue
            }
            if character == "%" { return out }
            out.append(character)
        }
        if escaped { out.append("\\") }
        return out
    }

    /// A crontab command as notif writes it, `[ -x PROGRAM ] && exec ARGV…` (after cron's own
    /// unescaping), split as /bin/sh splits it (run as `user`): the program the guard tests and
    /// the argv exec runs. The guard's word ends at the first ` ] && exec ` after which the
    /// left part is one complete shell word.
    static func guarded(_ command: String, as user: TestUser) throws -> (program: String, argv: [String]) {
        guard command.hasPrefix("[ -x ") else { throw E2EFailure("no guard in \(command.debugDescription)") }
        let rest = String(command.dropFirst("[ -x ".count))
        var searchFrom = rest.startIndex
        while let range = rest.range(of: " ] && exec ", range: searchFrom..<rest.endIndex) {
            let left = String(rest[..<range.lowerBound]), right = String(rest[range.upperBound...])
            let words = try user.run(["/bin/sh", "-c", "set -- " + left + "\nprintf '%s\\0' \"$@\""])
            let split = words.stdout.split(separator: "\0", omittingEmptySubsequences: false).dropLast().map(String.init)
            if words.status == 0 && split.count == 1 {
                let parsed = try user.run(["/bin/sh", "-c", "set -- " + right + "\nprintf '%s\\0' \"$@\""])
                guard parsed.status == 0 else { throw E2EFailure("\(parsed)") }
                return (split[0], parsed.stdout.split(separator: "\0", omittingEmptySubsequences: false).dropLast().map(String.init))
            }
            searchFrom = range.upperBound
        }
        throw E2EFailure("no guard word in \(command.debugDescription)")
    }

    /// An `ExecStart=` value as systemd turns it into argv (systemd.service(5) "Command lines"):
    /// `%%` is `%` (any other specifier is an error here), words split on whitespace with
    /// double- or single-quoted words and C escapes, and in arguments `$$` is `$` while
    /// `$NAME`/`${NAME}` expand (to nothing: the job's environment has none of them).
    static func systemdArgv(_ value: String) throws -> [String] {
        var specifiersDone = ""
        var iterator = value.makeIterator()
        while let c = iterator.next() {
            if c == "%" {
                guard iterator.next() == "%" else { throw E2EFailure("a specifier other than %% in \(value.debugDescription)") }
            }
            specifiersDone.append(c)
        }
        let chars = Array(specifiersDone.unicodeScalars)
        var words: [String] = []
        var i = 0
        func unescape(_ i: inout Int) throws -> String {
            i += 1
            guard i < chars.count else { throw E2EFailure("a trailing backslash") }
            let c = chars[i]
            i += 1
            switch c {
            case "n": return "\n"
            case "t": return "\t"
            case "r": return "\r"
            case "a": return "\u{7}"
            case "b": return "\u{8}"
            case "f": return "\u{C}"
            case "v": return "\u{B}"
            case "s": return " "
            case "x":
                guard i + 1 < chars.count, let v = UInt32(String(chars[i]) + String(chars[i + 1]), radix: 16) else { throw E2EFailure("bad \\x") }
                i += 2
                return String(Unicode.Scalar(v)!)
            default: return String(c)
            }
        }
        while i < chars.count {
            while i < chars.count && (chars[i] == " " || chars[i] == "\t") { i += 1 }
            guard i < chars.count else { break }
            var word = ""
            while i < chars.count && chars[i] != " " && chars[i] != "\t" {
                let c = chars[i]
                if c == "\"" || c == "'" {
                    i += 1
                    while i < chars.count && chars[i] != c {
                        if chars[i] == "\\" { word += try unescape(&i) } else { word.unicodeScalars.append(chars[i]); i += 1 }
                    }
                    guard i < chars.count else { throw E2EFailure("an unclosed quote in \(value.debugDescription)") }
                    i += 1
                } else if c == "\\" {
                    word += try unescape(&i)
                } else {
                    word.unicodeScalars.append(c)
                    i += 1
                }
            }
            words.append(word)
        }
        guard let program = words.first else { return [] }
        return [program] + words.dropFirst().map(expandVariables)
    }

    private static func expandVariables(_ word: String) -> String {
        var out = ""
        let chars = Array(word)
        var i = 0
        while i < chars.count {
            if chars[i] == "$" && i + 1 < chars.count {
                if chars[i + 1] == "$" { out.append("$"); i += 2; continue }
                if chars[i + 1] == "{", let close = chars[(i + 2)...].firstIndex(of: "}") { i = close + 1; continue }
                var j = i + 1
                while j < chars.count && (chars[j].isLetter || chars[j].isNumber || chars[j] == "_") && chars[j].isASCII { j += 1 }
                if j > i + 1 { i = j; continue }
            }
            out.append(chars[i])
            i += 1
        }
        return out
    }
}

/// Paths full of shell, cron and systemd metacharacters: the entries notif writes run the
/// right binary with the right arguments and nothing else.
@Suite(.enabled(if: isRoot, "needs root for a throwaway user's real crontab"))
struct ReliabilityCronInjectionTests {
    static let mine = "# my own: 100% mine \\% \\\\\nMAILTO=\"\"\n*/5 * * * * echo 'a%b' \\% > /dev/null\n"

    /// A world-readable tree (the user can reach and run it) owned by the user where notif writes.
    func layout(_ sandbox: Sandbox, _ name: String, user: TestUser) throws -> (binary: String, config: String, state: String) {
        // The name once in each place: cron takes a command of 998 bytes at most.
        let base = sandbox.path + "/" + UUID().uuidString.prefix(6)
        let bin = base + "/bin " + name
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        let binary = bin + "/notif"
        let copied = try run(["cp", NotifBinary.path, binary], environment: ["PATH": "/usr/bin:/bin"])
        guard copied.status == 0 else { throw E2EFailure("cp: \(copied)") }
        let config = base + "/cfg " + name, state = base + "/state " + name
        for dir in [config, state] { try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true) }
        _ = try run(["chown", "-R", user.name, base], environment: ["PATH": "/usr/bin:/bin"])
        for dir in [sandbox.path, base, bin] { chmod(dir, 0o755) }
        chmod(binary, 0o755)
        return (binary, config, state)
    }

    @Test(.hangGuard)
    func cronLinesRunExactlyTheIntendedArgv() throws {
        let user = try TestUser.make("notif-trinject")
        defer { deleteUser(user) }
        let sandbox = Sandbox()
        let canary = sandbox.path + "/CANARY"
        try user.setCrontab(Self.mine)
        var checked = 0
        let seed = Soak.seed()
        for name in NastyNames.forRun(canary: canary, seed: seed, soakCount: 150) {
            let (binary, config, state) = try layout(sandbox, name, user: user)
            let env = ["NOTIF_SCHEDULER": "cron", "XDG_CONFIG_HOME": config, "XDG_STATE_HOME": state]
            _ = try user.run(direct([binary, "permission", "grant"]), env)
            let set = try user.run(direct([binary, "set", "tips-and-updates", "on"]), env)
            #expect(set.status == 0, "seed \(seed) \(visible(name)): \(set)")
            let crontab = try user.crontab()
            #expect(crontab.hasPrefix(Self.mine), "the user's lines stay byte for byte: \(visible(crontab))")
            let lines = crontab.split(separator: "\n").map(String.init)
            let daily = try #require(lines.first { $0.hasPrefix("0 9 * * * ") }, "\(visible(crontab))")
            let boot = try #require(lines.first { $0.hasPrefix("@reboot ") }, "\(visible(crontab))")
            let prefix = ["/usr/bin/env", "-u", "TZ", "-u", "TZDIR", "-u", "XDG_DATA_HOME", "HOME=" + user.home, "XDG_CONFIG_HOME=" + config, "XDG_STATE_HOME=" + state]
                + trampoline(binary) + [binary]
            for (line, schedule, args) in [(daily, "0 9 * * * ", ["deliver", "--quiet", "tips-and-updates"]),
                                           (boot, "@reboot ", ["deliver", "--quiet", "--catch-up", "tips-and-updates"])] {
                // What cron hands to sh, as sh splits it into words (run as the user, not root).
                let (program, argv) = try NastyNames.guarded(NastyNames.cronCommand(String(line.dropFirst(schedule.count))), as: user)
                #expect(program == binary, "\(visible(name)): the line \(visible(line)) tests \(visible(program))")
                #expect(argv == prefix + args, "\(visible(name)): the line \(visible(line)) runs \(argv.map { visible($0) })")
            }
            #expect(!FileManager.default.fileExists(atPath: canary), "nothing in a path is ever run: \(visible(name))")
            // And run for real, as cron would: the right binary decides in the right state
            // directory (its deliver lock is there), saying nothing. (Just turned on, the entry is
            // newer than any 09:00 today: the run is no attempt, whatever the time of day.)
            let ran = try user.run(["/bin/sh", "-c", NastyNames.cronCommand(String(boot.dropFirst("@reboot ".count)))],
                                   ["SHELL": "/bin/sh"])
            #expect(ran.status == 0 && ran.stdout.isEmpty && ran.stderr.isEmpty, "\(visible(name)): \(ran)")
            #expect(FileManager.default.fileExists(atPath: state + "/notif/deliver.lock"), "\(visible(name))")
            let off = try user.run(direct([binary, "set", "tips-and-updates", "off"]), env)
            #expect(off.status == 0, "\(off)")
            #expect(try user.crontab() == Self.mine, "\(visible(name))")
            checked += 1
        }
        #expect(!FileManager.default.fileExists(atPath: canary))
        print("[reliability] cron injection: \(checked) nasty paths (seed \(seed)), each line parsed by sh and run once")
    }

    /// notif run with a HOME other than the password database's (the one cron gives jobs): the
    /// entry carries that HOME, so the job reads the same settings and logs in the same place.
    @Test func anotherHomeTravelsWithTheCronEntry() throws {
        let user = try TestUser.make("notif-trhome")
        defer { deleteUser(user) }
        let sandbox = Sandbox()
        let binary = try NotifBinary.publicCopy(in: sandbox)
        let other = sandbox.path + "/other home $HOME `x` 100%"
        try FileManager.default.createDirectory(atPath: other, withIntermediateDirectories: true)
        _ = try run(["chown", user.name, other], environment: ["PATH": "/usr/bin:/bin"])
        let env = ["NOTIF_SCHEDULER": "cron", "HOME": other]
        _ = try user.run([binary, "permission", "grant"], env)
        #expect(try user.run([binary, "set", "tips-and-updates", "on"], env).status == 0)
        let lines = try user.crontab().split(separator: "\n").map(String.init)
        let line = try #require(lines.first { $0.hasPrefix("0 9 * * * ") })
        let (program, argv) = try NastyNames.guarded(NastyNames.cronCommand(String(line.dropFirst("0 9 * * * ".count))), as: user)
        #expect(program == binary && argv == ["/usr/bin/env", "-u", "TZ", "-u", "TZDIR", "-u", "XDG_CONFIG_HOME", "-u", "XDG_STATE_HOME", "-u", "XDG_DATA_HOME", "HOME=" + other, binary, "deliver", "--quiet", "tips-and-updates"], "\(visible(line))")
        // Run as cron would (the boot line), with the account's own HOME: the run decides in the
        // other HOME's state directory (its deliver lock is there), not the account's.
        let boot = try #require(lines.first { $0.hasPrefix("@reboot ") })
        let ran = try user.run(["/bin/sh", "-c", NastyNames.cronCommand(String(boot.dropFirst("@reboot ".count)))], ["SHELL": "/bin/sh"])
        #expect(ran.status == 0 && ran.stdout.isEmpty && ran.stderr.isEmpty, "\(ran)")
        #expect(FileManager.default.fileExists(atPath: other + "/.local/state/notif/deliver.lock"))
        #expect(!FileManager.default.fileExists(atPath: user.stateDir + "/deliver.lock"))
        // With the account's own HOME nothing extra is carried.
        _ = try user.run([binary, "set", "tips-and-updates", "off"], env)
        _ = try user.run([binary, "permission", "grant"], ["NOTIF_SCHEDULER": "cron"])
        #expect(try user.run([binary, "set", "tips-and-updates", "on"], ["NOTIF_SCHEDULER": "cron"]).status == 0)
        let plain = try user.crontab()
        let quoted = "'\(sandbox.path)/my bin 100\\%/notif'"
        #expect(plain.contains("0 9 * * * [ -x \(quoted) ] && exec \(user.cronPins()) \(quoted) deliver --quiet tips-and-updates"), "\(plain)")
    }

    /// Paths a crontab line cannot hold (a newline or carriage return, or a command over cron's
    /// 998-byte limit for a command): refused with a message and exit 1, the preference and the crontab kept.
    @Test func unrepresentablePathsAreRefusedAndNothingIsLost() throws {
        let user = try TestUser.make("notif-trnewline")
        defer { deleteUser(user) }
        let sandbox = Sandbox()
        try user.setCrontab(Self.mine)
        let long = String(repeating: "d", count: 200) + "/" + String(repeating: "e", count: 200)
        for (name, message) in [("new\nline", "a crontab line cannot hold a line break"), ("carriage\rreturn", "a crontab line cannot hold a line break"),
                                (long, "bytes long, and cron takes 998 at most")] {
            let (binary, config, state) = try layout(sandbox, name, user: user)
            let env = ["NOTIF_SCHEDULER": "cron", "XDG_CONFIG_HOME": config, "XDG_STATE_HOME": state]
            _ = try user.run(direct([binary, "permission", "grant"]), env)
            let set = try user.run(direct([binary, "set", "tips-and-updates", "on"]), env)
            #expect(set.status == 1, "\(visible(name)): \(set)")
            #expect(set.stdout.contains(message), "\(visible(name)): \(set)")
            #expect(set.stderr.contains("the setting was saved"), "\(set)")
            #expect(user.read(config + "/notif/settings.json")?.contains("\"tipsAndUpdates\": true") == true)
            #expect(try user.crontab() == Self.mine)
            let status = try user.run(direct([binary, "status"]), env)
            #expect(status.stdout.contains("In sync:            no (tips-and-updates is planned but not installed)"), "\(status)")
        }
    }
}

/// The same names in systemd unit files: `systemd-analyze verify` passes with nothing on
/// stderr and ExecStart decodes to exactly the intended argv; a program path systemd cannot
/// hold is refused with a message.
@Suite struct ReliabilitySystemdInjectionTests {
    func verify(_ files: [String], in sandbox: Sandbox) throws -> RunResult {
        let runtime = sandbox.path + "/runtime"
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let result = try run(["systemd-analyze", "--user", "verify"] + files,
                             environment: ["PATH": "/usr/bin:/bin", "HOME": sandbox.path, "XDG_RUNTIME_DIR": runtime], timeout: 60)
        return RunResult(status: result.status, stdout: result.stdout, stderr: SystemdVerifyNoise.strip(result.stderr))
    }

    @Test(.hangGuard)
    func unitFilesRunExactlyTheIntendedArgv() throws {
        let outer = Sandbox()
        let canary = outer.path + "/CANARY"
        var verified = 0
        let seed = Soak.seed()
        for name in NastyNames.forRun(canary: canary, seed: seed, soakCount: 150) + ["new\nline"] {
            for carryXDG in [false, true] {
                let sandbox = Sandbox()
                let base = sandbox.path + "/" + name
                let binary = try NotifBinary.publicCopy(in: sandbox, directory: name + "/bin " + name)
                var env = ["NOTIF_SCHEDULER": "systemd", "HOME": base + "/home " + name]
                let config = carryXDG ? base + "/cfg " + name : base + "/home " + name + "/.config"
                if carryXDG {
                    env["XDG_CONFIG_HOME"] = config
                    env["XDG_STATE_HOME"] = base + "/state " + name
                }
                let what = "seed \(seed) \(visible(name)) xdg=\(carryXDG)"
                _ = try run(direct([binary, "permission", "grant"]), environment: sandbox.environment(env))
                let set = try run(direct([binary, "set", "tips-and-updates", "on"]), environment: sandbox.environment(env))
                // Units go to the user manager's directory under HOME, whatever XDG_CONFIG_HOME says.
                let units = env["HOME"]! + "/.config/systemd/user"
                if binary.contains("\n") {
                    // ConditionFileIsExecutable= takes the rest of its line as the path: no line breaks.
                    #expect(set.status == 1 && set.stdout.contains("cannot name a program whose path holds a line break"), "\(what): \(set)")
                    #expect(sandbox.files(in: units).isEmpty, "\(what)")
                    continue
                }
                // HOME here is not the account's (root's), so it goes with the entry: the program
                // is an argument of /usr/bin/env, where any path can be escaped.
                #expect(set.status == 0, "\(what): \(set)")
                let names = sandbox.files(in: units).filter { $0.hasPrefix("notif-tips-and-updates-") }
                #expect(names.count == 2, "\(what): \(names)")
                let timerName = try #require(names.first { $0.hasSuffix(".timer") }), serviceName = try #require(names.first { $0.hasSuffix(".service") })
                let timer = units + "/" + timerName, service = units + "/" + serviceName
                #expect(isSymlink(units + "/timers.target.wants/" + timerName), "enabled: \(what)")
                #expect(sandbox.read(timer)?.contains("\nOnCalendar=*-*-* 09:00:00 Europe/Berlin\n") == true, "the zone notif shows: \(what)")
                // systemd-analyze adds the files' directory to a ':'-separated search path, so
                // copies in a plain directory are verified (the text is what is checked).
                let plain = sandbox.path + "/verify"
                try? FileManager.default.removeItem(atPath: plain)
                try FileManager.default.createDirectory(atPath: plain, withIntermediateDirectories: true)
                for file in [timer, service] {
                    try FileManager.default.copyItem(atPath: file, toPath: plain + "/" + (file as NSString).lastPathComponent)
                }
                let verified1 = try verify([plain + "/" + timerName, plain + "/" + serviceName], in: sandbox)
                #expect(verified1.status == 0 && verified1.stderr.isEmpty, "\(what): \(verified1)")
                let text = try #require(sandbox.read(service), "\(what)")
                // The condition names exactly the program: systemd's own check finds it.
                let condition = try #require(text.split(separator: "\n").first { $0.hasPrefix("ConditionFileIsExecutable=") }, "\(what)")
                let holds = try run(["systemd-analyze", "condition", String(condition)], environment: ["PATH": "/usr/bin:/bin"])
                #expect(holds.status == 0 && (holds.stdout + holds.stderr).contains("Conditions succeeded"), "\(what): \(visible(String(condition))) \(holds)")
                let execStart = try #require(text.split(separator: "\n").first { $0.hasPrefix("ExecStart=") }, "\(what)")
                let argv = try NastyNames.systemdArgv(String(execStart.dropFirst("ExecStart=".count)))
                let prefix = ["/usr/bin/env", "HOME=" + env["HOME"]!]
                    + (carryXDG ? ["XDG_CONFIG_HOME=" + config, "XDG_STATE_HOME=" + env["XDG_STATE_HOME"]!] : []) + ["TZ=Europe/Berlin"] + trampoline(binary)
                #expect(argv == prefix + [binary, "deliver", "--quiet", "--catch-up", "tips-and-updates"], "\(what): \(visible(String(execStart))) → \(argv.map { visible($0) })")
                // Run that argv as the service would: silent, and it decides in the state directory
                // the entry names (its deliver lock is there; just turned on, it is no attempt).
                let stateDir = (env["XDG_STATE_HOME"] ?? env["HOME"]! + "/.local/state") + "/notif"
                let ran = try SpawnProcessRunner().run(argv, input: nil, environment: ["PATH": "/usr/bin:/bin", "HOME": env["HOME"]!,
                                                                                       "XDG_CONFIG_HOME": nil, "XDG_STATE_HOME": nil, "TZ": nil,
                                                                                       "DBUS_SESSION_BUS_ADDRESS": nil], timeout: 30)
                #expect(ran.exitStatus == 0 && ran.stdout.isEmpty && ran.stderr.isEmpty, "\(what): \(ran.stdoutText) \(ran.stderrText)")
                #expect(FileManager.default.fileExists(atPath: stateDir + "/deliver.lock"), "\(what)")
                let off = try run(direct([binary, "set", "tips-and-updates", "off"]), environment: sandbox.environment(env))
                #expect(off.status == 0 && !FileManager.default.fileExists(atPath: timer), "\(what): \(off)")
                verified += 1
            }
        }
        #expect(!FileManager.default.fileExists(atPath: canary))
        print("[reliability] systemd injection: \(verified) unit pairs verified and decoded (seed \(seed))")
    }

    /// With nothing to carry (the account's own HOME, no XDG directories) the program is the
    /// first word of ExecStart, where systemd takes no quotes, backslashes or control
    /// characters: such a path is refused with a message, the setting kept, no unit written.
    @Test(arguments: ["it's", #"back\slash"#])
    func aProgramPathSystemdCannotHoldIsRefused(directory: String) throws {
        let user = try TestUser.make(directory.contains("'") ? "notif-trsdref-q" : "notif-trsdref-b")
        defer { deleteUser(user) }
        let sandbox = Sandbox()
        let binary = try NotifBinary.publicCopy(in: sandbox, directory: directory)
        let env = ["NOTIF_SCHEDULER": "systemd"]
        _ = try user.run([binary, "permission", "grant"], env)
        let set = try user.run([binary, "set", "tips-and-updates", "on"], env)
        #expect(set.status == 1, "\(set)")
        #expect(set.stdout.contains("systemd refuses programs whose path holds quotes, backslashes or control characters"), "\(set)")
        #expect(set.stderr.contains("the setting was saved"), "\(set)")
        #expect(user.read(user.settingsPath)?.contains("\"tipsAndUpdates\": true") == true)
        #expect(!FileManager.default.fileExists(atPath: user.home + "/.config/systemd/user/" + user.timerName))
    }
}

/// With `umask 000` every file notif makes is still 0600 and every directory 0700 (systemd
/// units and the autostart entry are 0644 by design: they hold no secrets).
@Suite struct ReliabilityFileModeTests {
    @Test func privateModesEvenWithUmaskZero() throws {
        let sandbox = Sandbox()
        let fakes = try FakeTools(in: sandbox)
        try fakes.add("crontab", """
            f="$HOME/fake-crontab"
            case "$1" in -l) [ -f "$f" ] && exec cat "$f"; echo "no crontab for x" >&2; exit 1 ;; -e) [ -f "$f" ] && exec cat "$f"; echo "no crontab for x - using an empty one" >&2 ;; -) cat > "$f" ;; -r) rm -f "$f" ;; esac
            """)
        let server = try AccountServer(script: ["history": ["status": 200, "body": [["id": "1", "title": "t", "body": "b", "sentAt": "2026-11-29T10:00:00Z"]]]])
        // The notifications go to a stand-in service, which closes each at once (so no waiter stays).
        let service = try FakeNotificationService(config: ["close_after": 0.1])
        let env = ["PATH": fakes.path, "DBUS_SESSION_BUS_ADDRESS": service.busAddress, "NOTIF_SCHEDULER": "embedded"]
        let home = sandbox.path + "/home"
        var seen: [String: Int] = [:]
        /// Every path notif owns now has its private mode (checked after each step, since
        /// entries come and go as the scheduler moves).
        func checkModes(after step: [String]) {
            let owned = walk(home).filter {
                // systemctl makes the .wants directories, with its own modes.
                !$0.hasSuffix("/fake-crontab") && !isSymlink($0) && !$0.contains("/timers.target.wants") && !$0.contains("/default.target.wants")
            }
            for path in owned {
                let mode = permissions(path)
                let shared = path.hasSuffix(".timer") || path.hasSuffix(".service") || path.hasSuffix(".desktop")
                let expected = isDirectory(path) ? 0o700 : (shared ? 0o644 : 0o600)
                #expect(mode == expected, "after \(step): \(path) is \(String(mode ?? -1, radix: 8)), expected \(String(expected, radix: 8))")
                seen[path, default: 0] += 1
            }
        }
        func notif(_ args: [String], _ extra: [String: String] = [:], input: String? = nil) throws {
            let result = try run(["/bin/sh", "-c", "umask 000; exec \"$@\"", "sh", NotifBinary.path] + args,
                                 environment: sandbox.environment(env.merging(extra) { _, new in new }), input: input)
            #expect(result.status == 0, "\(args): \(result)")
            checkModes(after: args)
        }
        try notif(["permission", "grant"])
        try notif(["set", "tips-and-updates", "on"])
        // Due: it is 09:01 there, and without its record of when it began the entry counts as
        // there since before (as an earlier notif's): shown, and the day recorded.
        #expect(seen.keys.contains { $0.hasSuffix("/entry-since.json") })
        try FileManager.default.removeItem(atPath: sandbox.stateDir + "/entry-since.json")
        try notif(["deliver", "tips-and-updates"], ["TZ": ZoneShift.whereItIs(9, 1)])
        try notif(["test"])
        try notif(["--scheduler", "cron", "apply"])
        try notif(["--scheduler", "systemd", "apply"])
        try notif(["daemon", "--install-autostart"])
        let daemon = try DaemonProcess(["/bin/sh", "-c", "umask 000; exec \"$@\"", "sh", NotifBinary.path, "daemon"],
                                       environment: sandbox.environment(env), outputIn: sandbox.path)
        #expect(daemon.waitUntilRunning(), "\(daemon.output)")
        checkModes(after: ["daemon"])
        daemon.send(SIGTERM)
        #expect(daemon.waitForExit() == 0, "\(daemon.output)")
        try notif(["account", "login", "--server", server.url], input: "secret-token\n")
        try notif(["history"])
        // Entries and the scheduler record carry the configuration's tag (`scheduler-TAG`,
        // `embedded/tips-and-updates.TAG`, `notif-tips-and-updates-TAG.timer`): names are prefixes.
        let expectedFiles = ["settings.json", ".settings.lock", "deliveries.jsonl", "delivered.json", "entry-since.json", "session.env", "scheduler*",
                             "apply.lock", "deliver.lock", "crontab.lock", "daemon.lock", "daemon-zone", "auth-token", "device-token",
                             "registration.json", "history-cache.json", "embedded/tips-and-updates.*", "notif-tips-and-updates-*.timer",
                             "notif-tips-and-updates-*.service", "notif-daemon.desktop", "systemd/user", ".config", ".local/state"]
        for name in expectedFiles {
            let parts = name.split(separator: "*", omittingEmptySubsequences: false).map(String.init)
            #expect(seen.keys.contains { $0.contains("/" + parts[0]) && $0.hasSuffix(parts.last!) }, "\(name) (\(parts)) was made, so its mode was checked: \(seen.keys.sorted())")
        }
        let checked = seen.count
        print("[reliability] file modes under umask 000: \(checked) paths checked")
    }
}
