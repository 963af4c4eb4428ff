import Foundation
import LinuxGateway
import TestSupport
import Testing

/// A child started from raw argument bytes (invalid UTF-8 included), output to files, in its
/// own process group so a hang can be killed with everything it started.
struct RawChild {
    let pid: pid_t
    let stdoutPath: String
    let stderrPath: String

    static func spawn(_ argv: [[UInt8]], environment: [String], outputIn directory: String) throws -> RawChild {
        let out = directory + "/stdout", err = directory + "/stderr"
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, out, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, err, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        func cString(_ bytes: [UInt8]) -> UnsafeMutablePointer<CChar> {
            let pointer = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count + 1)
            for (i, byte) in bytes.enumerated() { pointer[i] = CChar(bitPattern: byte) }
            pointer[bytes.count] = 0
            return pointer
        }
        let cArgs: [UnsafeMutablePointer<CChar>?] = argv.map(cString) + [nil]
        let cEnv: [UnsafeMutablePointer<CChar>?] = environment.map { cString(Array($0.utf8)) } + [nil]
        defer {
            for p in cArgs + cEnv { p?.deallocate() }
        }
        var pid: pid_t = 0
        let rc = withSpawnAttributes { posix_spawn(&pid, cArgs[0]!, &actions, &$0, cArgs, cEnv) }
        guard rc == 0 else { throw E2EFailure("posix_spawn: \(String(cString: strerror(rc)))") }
        return RawChild(pid: pid, stdoutPath: out, stderrPath: err)
    }

    var stdout: String { String(decoding: fileBytes(stdoutPath) ?? Data(), as: UTF8.self) }
    var stderr: String { String(decoding: fileBytes(stderrPath) ?? Data(), as: UTF8.self) }

    /// The wait status once it ended, else nil (never blocks).
    func poll() -> Int32? {
        var status: Int32 = 0
        return waitpid(pid, &status, WNOHANG) == pid ? status : nil
    }

    /// Kills the whole process group and reaps the child.
    func killAll() {
        kill(-pid, SIGKILL)
        var status: Int32 = 0
        _ = waitpid(pid, &status, 0)
    }
}

/// Random argument vectors against the real binary: whatever the arguments, notif exits 0, 1
/// or 2, never by a signal, never hangs, and never leaves an unreadable settings file.
@Suite struct ReliabilityArgvFuzzTests {
    static let words = [
        "status", "set", "permission", "apply", "deliver", "history", "test", "daemon", "help", "account", "onboarding",
        "push-notifications", "tips-and-updates", "queue-alerts", "promotions", "vibration", "sound",
        "on", "off", "default", "chime", "bell", "silent", "grant", "deny", "reset", "login", "logout", "status",
        "--json", "--help", "-h", "--version", "-V", "--scheduler", "--scheduler=embedded", "--scheduler=cron",
        "--scheduler=systemd", "--scheduler=", "embedded", "cron", "systemd", "--catch-up", "-n", "--limit",
        "--poll-interval", "--poll-interval=10", "--poll-interval=9", "--install-autostart", "--remove-autostart",
        "--server", "--server=http://127.0.0.1:9", "http://127.0.0.1:9", "https://nonexistent.invalid", "--",
        "completion", "bash", "zsh", "fish", "--entries",
        "-", "-x", "--x", "-1", "0", "1", "10", "99999999999999999999999", "", " ", "tips-and-updates ",
    ]

    static let oddStrings = [
        "/", "../../../etc/passwd", "~", "$HOME", "`id`", "$(id)", "%s%n%x", "'", "\"", "\\", "a\\%b", ";", "&&", "|",
        "*", "?", "[", "{}", "=", "--=", "-- ", "\u{202E}gnp.exe", "\u{FEFF}", "\u{200D}", "e\u{301}", "日本語", "😀👍🏽",
        "\u{10FFFF}", "\u{FFFD}", "Ω≈ç√", "\u{1B}[2J\u{1B}]0;x\u{7}", "\r", "\n", "\t", "\u{7F}", "\u{1}", "\u{85}",
    ]

    /// One random argument, as bytes.
    static func argument(_ random: inout SeededRandom, allowLong: inout Bool) -> [UInt8] {
        let roll = Int.random(in: 0..<100, using: &random)
        switch roll {
        case 0..<50:
            return Array(words.randomElement(using: &random)!.utf8)
        case 50..<58:
            var word = words.randomElement(using: &random)!
            switch Int.random(in: 0..<4, using: &random) {
            case 0: word = word.uppercased()
            case 1: word = "--" + word
            case 2: word += "=" + (words.randomElement(using: &random) ?? "")
            default: word = String(word.dropLast())
            }
            return Array(word.utf8)
        case 58..<68:
            return Array(oddStrings.randomElement(using: &random)!.utf8)
        case 68..<78:
            var text = ""
            let ranges: [ClosedRange<UInt32>] = [0x20...0x7E, 0xA0...0x24F, 0x300...0x36F, 0x590...0x6FF, 0x3040...0x30FF,
                                                 0x4E00...0x9FFF, 0x1F300...0x1FAFF, 0xE000...0xF8FF, 0x1...0x1F, 0x2000...0x206F]
            for _ in 0..<Int.random(in: 1...24, using: &random) {
                let range = ranges.randomElement(using: &random)!
                if let scalar = Unicode.Scalar(UInt32.random(in: range, using: &random)) { text.unicodeScalars.append(scalar) }
            }
            return Array(text.utf8)
        case 78..<85:
            // Bytes that are not UTF-8 at all (no NUL: argv cannot hold one).
            return (0..<Int.random(in: 1...16, using: &random)).map { _ in UInt8.random(in: 1...255, using: &random) }
        case 85..<90:
            guard allowLong else { return [] }
            allowLong = false
            let length = Int.random(in: 1000...100_000, using: &random)
            let unit = Array((words.randomElement(using: &random)! + "é").utf8)
            return Array((0..<length).map { unit[$0 % unit.count] })
        case 90..<95:
            return Array(String(Int.random(in: Int.min...Int.max, using: &random)).utf8)
        default:
            return []
        }
    }

    /// Well-formed command lines, which the fuzzer then damages (or not), so that runs get past
    /// the parser into every command.
    static let valid: [[String]] = {
        var lines: [[String]] = [["status"], ["status", "--json"], ["apply"], ["deliver", "tips-and-updates"],
                                 ["deliver", "--catch-up", "tips-and-updates"], ["history"], ["history", "--json"], ["history", "-n", "3"],
                                 ["test"], ["daemon"], ["daemon", "--poll-interval", "10"], ["daemon", "--install-autostart"],
                                 ["daemon", "--remove-autostart"], ["account", "status"], ["account", "logout"],
                                 ["account", "login", "--server", "http://127.0.0.1:9"], ["--version"], ["--help"], ["onboarding"], [],
                                 ["completion", "bash"], ["daemon", "--install-autostart", "--poll-interval", "20"]]
        for action in ["grant", "deny", "reset", "status"] { lines.append(["permission", action]) }
        for setting in ["push-notifications", "tips-and-updates", "queue-alerts", "promotions", "vibration"] {
            lines.append(["set", setting, "on"])
            lines.append(["set", setting, "off"])
        }
        for sound in ["default", "chime", "bell", "silent"] { lines.append(["set", "sound", sound]) }
        for command in ["status", "set", "permission", "apply", "deliver", "history", "test", "daemon", "account", "completion"] {
            lines.append(["help", command])
            lines.append([command, "--help"])
        }
        return lines
    }()

    static func argv(_ random: inout SeededRandom) -> [[UInt8]] {
        var allowLong = true
        if Int.random(in: 0..<10, using: &random) < 3 {
            let count = [0, 1, 1, 2, 2, 2, 3, 3, 4, 5, 6, 9].randomElement(using: &random)!
            return (0..<count).map { _ in argument(&random, allowLong: &allowLong) }
        }
        var line = valid.randomElement(using: &random)!.map { Array($0.utf8) }
        if Int.random(in: 0..<4, using: &random) == 0 {
            let global = ["--scheduler=embedded", "--scheduler=cron", "--scheduler=systemd", "--help", "--version", "--"].randomElement(using: &random)!
            line.insert(Array(global.utf8), at: Int.random(in: 0...line.count, using: &random))
        }
        for _ in 0..<[0, 0, 0, 1, 1, 2].randomElement(using: &random)! {
            let at = Int.random(in: 0...line.count, using: &random)
            switch Int.random(in: 0..<3, using: &random) {
            case 0 where at < line.count: line[at] = argument(&random, allowLong: &allowLong)
            case 1 where at < line.count: line.remove(at: at)
            default: line.insert(argument(&random, allowLong: &allowLong), at: at)
            }
        }
        return line
    }

    static func show(_ argv: [[UInt8]]) -> String {
        "[" + argv.map { bytes -> String in
            let text = String(decoding: bytes, as: UTF8.self)
            return text.count > 60 ? "<\(bytes.count) bytes: \(visible(String(text.prefix(30))))…>" : visible(text)
        }.joined(separator: ", ") + "]"
    }

    /// Two workers share the runs (the machine has two cores); each has its own HOME.
    @Test(.hangGuard, arguments: 0..<2)
    func randomArgumentVectors(worker: Int) throws {
        let seed = Soak.seed()
        var random = SeededRandom(seed: seed)
        let runs = Soak.count(short: 150, long: 5000)
        var sandbox = Sandbox()
        var fakes = try Self.fakes(in: sandbox)
        var exits: [Int32: Int] = [:]
        var daemons = 0
        var slowest = 0.0
        let start = Date()
        for run in 0..<runs {
            if run > 0 && run % 200 == 0 {
                sandbox = Sandbox()
                fakes = try Self.fakes(in: sandbox)
            }
            var argv = Self.argv(&random)
            // `reset --entries` as root rightly removes the built-in entries of every daemon root
            // runs, other tests' too: here it only asks for its help (its own tests run it alone).
            if argv.contains(Array("reset".utf8)) { argv = argv.map { $0 == Array("--entries".utf8) ? Array("--help".utf8) : $0 } }
            let environment = ["HOME=\(sandbox.path)/home", "PATH=\(fakes.path)", "LANG=C.UTF-8", "TZ=Europe/Berlin",
                               "NOTIF_SCHEDULER=embedded", "DBUS_SESSION_BUS_ADDRESS=unix:path=/nonexistent/bus"]
            let child = try RawChild.spawn([Array(NotifBinary.path.utf8)] + argv, environment: environment, outputIn: sandbox.path)
            let began = Date()
            var status: Int32?
            var stopped = false
            while status == nil {
                status = child.poll()
                if status != nil { break }
                let waited = elapsed(since: began)
                if !stopped && waited > 0.02 && child.stdout.contains("notif daemon: running") {
                    // `notif daemon` runs until stopped: give it a short life, and it must stop cleanly.
                    kill(child.pid, SIGTERM)
                    stopped = true
                    daemons += 1
                }
                if waited > 20 {
                    child.killAll()
                    Issue.record("hang: seed \(seed) worker \(worker) run \(run) argv \(Self.show(argv)) still running after 20 s; stdout \(visible(child.stdout))")
                    break
                }
                usleep(waited < 0.05 ? 1000 : 5000)
            }
            slowest = max(slowest, elapsed(since: began))
            guard let status else { continue }
            let what = "seed \(seed) worker \(worker) run \(run) argv \(Self.show(argv)): status \(status) stdout \(visible(child.stdout)) stderr \(visible(child.stderr))"
            let signal = status & 0x7f
            #expect(signal == 0, "ended by signal \(signal): \(what)")
            guard signal == 0 else { continue }
            let code = (status >> 8) & 0xff
            exits[code, default: 0] += 1
            #expect([0, 1, 2].contains(code), "\(what)")
            #expect(!child.stderr.contains("Fatal error"), "\(what)")
            if code == 2 { #expect(child.stderr.hasPrefix("notif: "), "usage errors say what is wrong: \(what)") }
            if stopped { #expect(code == 0, "a daemon stopped by SIGTERM exits 0: \(what)") }
            if let settings = fileBytes(sandbox.settingsPath) {
                #expect((try? JSONSerialization.jsonObject(with: settings)) != nil, "notif wrote a settings file it cannot read: \(what)")
            }
        }
        let exitSummary = exits.keys.sorted().map { "exit \($0): \(exits[$0]!)" }.joined(separator: ", ")
        print("[reliability] argv fuzz worker \(worker): \(runs) runs in \(String(format: "%.1f", elapsed(since: start))) s, seed \(seed); \(exitSummary); daemons stopped: \(daemons); slowest run \(String(format: "%.2f", slowest)) s")
    }

    /// Stand-ins that keep the fuzzer off the machine's real crontab, systemd and network.
    static func fakes(in sandbox: Sandbox) throws -> FakeTools {
        let fakes = try FakeTools(in: sandbox)
        try fakes.add("crontab", """
            f="$HOME/fake-crontab"
            case "$1" in
              -l) [ -f "$f" ] && exec cat "$f"; echo "no crontab for fuzz" >&2; exit 1 ;;
              -e) [ -f "$f" ] && exec cat "$f"; echo "no crontab for fuzz - using an empty one" >&2 ;;
              -) cat > "$f" ;;
              -r) rm -f "$f" ;;
              *) exit 1 ;;
            esac
            """)
        try fakes.add("systemctl", "exit 0")
        try fakes.add("curl", "echo 'curl: (7) Failed to connect' >&2; exit 7")
        return fakes
    }
}
