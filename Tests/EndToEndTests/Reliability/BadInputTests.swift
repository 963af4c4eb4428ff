import Foundation
import TestSupport
import Testing

/// A broken settings.json and what notif must do with it (doc/reliability.md).
struct BadSettings: Sendable, CustomTestStringConvertible {
    enum Kind: Sendable {
        /// Not valid JSON or wrong types: every command exits 1 naming the file, the line and
        /// column and the fix (the message holds `problem`); the file keeps every byte, in place,
        /// and nothing else is written beside it.
        case invalid(problem: String)
        /// A newer notif's file: left alone, exit 1 naming the path.
        case newer
        /// Cannot be read as a file: exit 1 naming the path and `reason`, nothing moved.
        case unusable(reason: String)
        /// Valid, with keys notif does not know: they survive a rewrite.
        case kept
    }

    let name: String
    let kind: Kind
    /// The file's bytes (nil for the special cases that `make` builds).
    let bytes: Data?
    let make: (@Sendable (Sandbox) throws -> Void)?

    var testDescription: String { name }

    init(_ name: String, _ kind: Kind, _ text: String) {
        self.init(name, kind, bytes: Data(text.utf8))
    }

    init(_ name: String, _ kind: Kind, bytes: Data) {
        self.name = name
        self.kind = kind
        self.bytes = bytes
        self.make = nil
    }

    init(_ name: String, _ kind: Kind, make: @escaping @Sendable (Sandbox) throws -> Void) {
        self.name = name
        self.kind = kind
        self.bytes = nil
        self.make = make
    }

    func install(in sandbox: Sandbox) throws {
        try FileManager.default.createDirectory(atPath: sandbox.configDir, withIntermediateDirectories: true)
        if let bytes { try bytes.write(to: URL(fileURLWithPath: sandbox.settingsPath)) }
        try make?(sandbox)
    }

    static func repeated(_ text: String, _ count: Int) -> String { String(repeating: text, count: count) }

    static let all: [BadSettings] = [
        // Not JSON at all
        BadSettings("empty", .invalid(problem: "line 1, column 1: the file is empty — write {} in it"), ""),
        BadSettings("only whitespace", .invalid(problem: "the file is empty"), " \n\t\r\n"),
        BadSettings("truncated after a key", .invalid(problem: "line 1, column 34: the word tr — use true, false or null"), #"{"version": 1, "tipsAndUpdates": tr"#),
        BadSettings("truncated inside a string", .invalid(problem: "the text ends inside a string — add the closing \""), #"{"version": 1, "sound": "be"#),
        BadSettings("truncated object", .invalid(problem: "the text ends inside an object (opened at line 1, column 1) — add the closing }"), #"{"version": 1, "sound": "bell","#),
        BadSettings("UTF-16 with BOM", .invalid(problem: "the file is UTF-16 — save it as UTF-8"), bytes: Data([0xFF, 0xFE]) + "{\"sound\":1}".data(using: .utf16LittleEndian)!),
        BadSettings("NUL inside a string", .invalid(problem: "a NUL byte inside a string"), bytes: Data(#"{"sound": "be"#.utf8) + Data([0]) + Data(#"ll"}"#.utf8)),
        BadSettings("only NUL bytes", .invalid(problem: "a NUL byte — the file holds binary data"), bytes: Data(repeating: 0, count: 4096)),
        BadSettings("invalid UTF-8 in a string", .invalid(problem: "bytes that are not UTF-8 — save the file as UTF-8"), bytes: Data(#"{"sound": "b"#.utf8) + Data([0xC3, 0x28, 0xFF]) + Data(#""}"#.utf8)),
        BadSettings("invalid UTF-8 outside strings", .invalid(problem: "line 1, column 1: the file is UTF-16 — save it as UTF-8"), bytes: Data([0xFF, 0xFE, 0xFD, 0x7B, 0x7D])),
        BadSettings("a byte that starts no value", .invalid(problem: "line 1, column 3: a value cannot start with"), bytes: Data([0x20, 0x20, 0xFD, 0x7B, 0x7D])),
        BadSettings("trailing comma", .invalid(problem: "line 1, column 17: a comma before } — remove it"), #"{"sound": "bell",}"#),
        BadSettings("a comment", .invalid(problem: "line 1, column 1: a comment — remove it: JSON has no comments"), "// mine\n{\"sound\": \"bell\"}"),
        BadSettings("duplicate key", .invalid(problem: "line 1, column 19: the key \"sound\" appears twice — keep one of them"), #"{"sound": "bell", "sound": "chime"}"#),
        BadSettings("two documents", .invalid(problem: "line 1, column 18: more text after the end of the settings"), #"{"sound": "bell"}{"sound": "chime"}"#),
        BadSettings("nested 100,000 deep", .invalid(problem: "nested more than 64 levels"), repeated("[", 100_000) + repeated("]", 100_000)),
        BadSettings("10 MB file", .invalid(problem: "over the 1048576-byte limit — a settings file is a few hundred bytes"), "{\"x\": \"" + repeated("a", 10 << 20) + "\"}"),
        // The wrong shape or types
        BadSettings("top level is an array", .invalid(problem: "line 1, column 1: the top level is an array, not an object"), #"[{"sound": "bell"}]"#),
        BadSettings("top level is null", .invalid(problem: "the top level is null"), "null"),
        BadSettings("top level is a string", .invalid(problem: "the top level is a string"), #""settings""#),
        BadSettings("version as a string", .invalid(problem: #"line 1, column 13: "version" is "1" — use a whole number (1)"#), #"{"version": "1"}"#),
        BadSettings("version as a fraction", .invalid(problem: #""version" is 1.5"#), #"{"version": 1.5}"#),
        BadSettings("negative version", .invalid(problem: #""version" is -1"#), #"{"version": -1}"#),
        BadSettings("version out of range", .invalid(problem: #""version" is 1e400"#), #"{"version": 1e400}"#),
        BadSettings("mode as a number", .invalid(problem: #""mode" is 1 — use "guest" or "account""#), #"{"mode": 1}"#),
        BadSettings("unknown mode", .invalid(problem: #""mode" is "admin" — use guest or account"#), #"{"mode": "admin"}"#),
        BadSettings("pushNotifications as a string", .invalid(problem: #"line 1, column 23: "pushNotifications" is "yes" — use true or false"#), #"{"pushNotifications": "yes"}"#),
        BadSettings("tipsAndUpdates as a number", .invalid(problem: #""tipsAndUpdates" is 1 — use true or false"#), #"{"tipsAndUpdates": 1}"#),
        BadSettings("queueAlerts null", .invalid(problem: #""queueAlerts" is null — use true or false"#), #"{"queueAlerts": null}"#),
        BadSettings("promotions as an array", .invalid(problem: #""promotions" is an array — use true or false"#), #"{"promotions": [true]}"#),
        BadSettings("sound as a boolean", .invalid(problem: #""sound" is true — use "default", "chime", "bell" or "silent""#), #"{"sound": true}"#),
        BadSettings("sound as a number", .invalid(problem: #""sound" is 3"#), #"{"sound": 3}"#),
        BadSettings("unknown sound", .invalid(problem: #""sound" is "trumpet" — use default, chime, bell or silent"#), #"{"sound": "trumpet"}"#),
        BadSettings("vibration as a string", .invalid(problem: #""vibration" is "on" — use true or false"#), #"{"vibration": "on"}"#),
        BadSettings("permission as a number", .invalid(problem: #""permission" is 0 — use "notDetermined", "granted" or "denied""#), #"{"permission": 0}"#),
        BadSettings("permission with a space", .invalid(problem: #""permission" is "granted ""#), #"{"permission": "granted "}"#),
        BadSettings("onboardingCompleted as an object", .invalid(problem: #""onboardingCompleted" is an object — use true or false"#), #"{"onboardingCompleted": {}}"#),
        BadSettings("account as a string", .invalid(problem: #""account" is "https://example.org" — use an object"#), #"{"account": "https://example.org"}"#),
        BadSettings("unknown scheduler", .invalid(problem: #""scheduler" is "anacron" — use auto, systemd, cron or embedded"#), #"{"scheduler": "anacron"}"#),
        BadSettings("scheduler as a boolean", .invalid(problem: #""scheduler" is true"#), #"{"scheduler": true}"#),
        BadSettings("account.server as a number", .invalid(problem: #"line 1, column 24: "account.server" is 443"#), #"{"account": {"server": 443}}"#),
        BadSettings("a 500,000-character value", .invalid(problem: "… (500000 characters)"), #"{"sound": ""# + repeated("x", 500_000) + #""}"#),
        BadSettings("escape sequences in a value", .invalid(problem: #""sound" is "\u{1B}]0;owned\u{7}\u{1B}[2J\u{9B}31m""#),
                    "{\"sound\": \"\\u001b]0;owned\\u0007\\u001b[2J\u{9B}31m\"}"),
        // A newer notif's file
        BadSettings("version 2", .newer, #"{"version": 2, "tipsAndUpdates": true, "newThing": {"a": 1}}"#),
        BadSettings("version 99 with types this notif rejects", .newer, #"{"version": 99, "sound": 5, "mode": ["x"]}"#),
        // Not a readable file
        BadSettings("a directory in its place", .unusable(reason: "it is a directory, not a file")) { sandbox in
            try FileManager.default.createDirectory(atPath: sandbox.settingsPath, withIntermediateDirectories: false)
            try Data("{}".utf8).write(to: URL(fileURLWithPath: sandbox.settingsPath + "/inside"))
        },
        BadSettings("a symlink loop", .unusable(reason: "Too many levels of symbolic links")) { sandbox in
            try FileManager.default.createSymbolicLink(atPath: sandbox.settingsPath, withDestinationPath: "settings.json")
        },
        BadSettings("a FIFO", .unusable(reason: "it is not a regular file")) { sandbox in
            guard mkfifo(sandbox.settingsPath, 0o600) == 0 else { throw E2EFailure("mkfifo failed") }
        },
        BadSettings("a symlink to /dev/null", .unusable(reason: "it is not a regular file")) { sandbox in
            try FileManager.default.createSymbolicLink(atPath: sandbox.settingsPath, withDestinationPath: "/dev/null")
        },
        // Valid, with keys notif does not know (or a byte order mark, which is skipped)
        BadSettings("byte order mark", .kept, "\u{FEFF}{\"sound\": \"bell\"}"),
        BadSettings("unknown keys, nulls and nesting", .kept,
                    #"{"version": 1, "sound": "bell", "zzz": null, "themeFromV3": {"dark": [1, 2.5e3, {"deep": null}], "name": "Ünïcødé ✓ \ud83d\ude00"}, "account": {"extra": true}}"#),
        BadSettings("a 900 KB unknown value", .kept, #"{"notes": ""# + repeated("n", 900_000) + #"", "promotions": false}"#),
    ]
}

/// Malformed settings files against `status`, `set`, `apply` and `status --json`: each gives
/// its documented message and exit code, the original bytes survive somewhere, nothing crashes.
@Suite struct ReliabilityBadInputTests {
    static let commands: [[String]] = [["status"], ["set", "promotions", "on"], ["apply"], ["status", "--json"]]
    let env = ["NOTIF_SCHEDULER": "embedded"]

    @Test(arguments: BadSettings.all)
    func eachMalformedFileGetsItsDocumentedOutcome(_ bad: BadSettings) throws {
        for args in Self.commands {
            let sandbox = Sandbox()
            try bad.install(in: sandbox)
            let original = fileBytes(sandbox.settingsPath)
            let result = try sandbox.notif(args, env)
            let what = "\(bad.name) / \(args.joined(separator: " ")): \(visible(result.description, limit: 2000))"
            #expect(!endedBySignal(result), "\(what)")
            // Nothing but settings.json itself (and the lock) is ever written beside it.
            let aside = sandbox.files(in: sandbox.configDir).filter { $0.hasPrefix("settings") && $0 != "settings.json" }
            switch bad.kind {
            case .invalid(let problem):
                #expect(result.status == 1, "\(what)")
                #expect(aside.isEmpty, "\(what)")
                #expect(fileBytes(sandbox.settingsPath) == original, "every byte kept, in place: \(what)")
                #expect(result.stderr.contains(sandbox.settingsPath + (problem.hasPrefix("line") ? " " : "")), "\(what)")
                #expect(result.stderr.contains(problem), "\(what)")
                // One message line per problem, never the whole bad value, never raw control characters.
                let line = result.stderr.split(separator: "\n").first { $0.contains(sandbox.settingsPath) } ?? ""
                #expect(line.count < 1000, "\(what)")
                #expect(!line.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }, "\(what)")
                if args == ["status"] {
                    #expect(result.stdout.contains("Installed:") && result.stdout.contains("Next reminder:      none — settings.json cannot be read"), "\(what)")
                } else if args.contains("--json") {
                    let json = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
                    #expect(json?["preferences"] is NSNull && (json?["settingsProblem"] as? String)?.contains(sandbox.settingsPath) == true, "\(what)")
                } else {
                    #expect(result.stdout.isEmpty, "\(what)")
                }
            case .newer:
                #expect(result.status == 1, "\(what)")
                #expect(result.stderr.contains(sandbox.settingsPath) && result.stderr.contains("newer than this notif understands"), "\(what)")
                #expect(result.stderr.contains("left unchanged"), "\(what)")
                #expect(fileBytes(sandbox.settingsPath) == original, "left alone byte for byte: \(what)")
                // status still says what is installed and when it fires.
                #expect(aside.isEmpty && (result.stdout.isEmpty || args.first == "status"), "\(what)")
            case .unusable(let reason):
                #expect(result.status == 1, "\(what)")
                #expect(result.stderr.contains(sandbox.settingsPath) && result.stderr.contains(reason), "\(what)")
                #expect(aside.isEmpty, "\(what)")
                #expect(result.stdout.isEmpty || args == ["apply"] || args.first == "set" || args.first == "status", "\(what)")
                if isDirectory(sandbox.settingsPath) {
                    #expect(fileBytes(sandbox.settingsPath + "/inside") == Data("{}".utf8), "\(what)")
                } else {
                    #expect(permissions(sandbox.settingsPath) != nil, "still in place: \(what)")
                }
            case .kept:
                #expect(result.status == 0, "\(what)")
                #expect(aside.isEmpty, "\(what)")
                let originalBytes = try #require(original)
                let afterBytes = try #require(fileBytes(sandbox.settingsPath))
                let before = try #require(try JSONSerialization.jsonObject(with: originalBytes) as? [String: Any])
                let after = try #require(try JSONSerialization.jsonObject(with: afterBytes) as? [String: Any])
                let known: Set<String> = ["version", "mode", "pushNotifications", "tipsAndUpdates", "queueAlerts", "promotions",
                                          "sound", "vibration", "permission", "onboardingCompleted", "scheduler"]
                for (key, value) in before where !known.contains(key) {
                    #expect(after[key].map { NSDictionary(dictionary: [key: $0]) } == NSDictionary(dictionary: [key: value]), "\(key) kept: \(what)")
                }
                if args.first == "set" { #expect(after["promotions"] as? Bool == true, "\(what)") }
                #expect(after["sound"] as? String == before["sound"] as? String ?? (args.first == "set" ? "default" : nil), "\(what)")
            }
        }
    }

    /// A symlink whose target is missing: reading gives the defaults; a change is written
    /// through the link when the target's directory exists, and refused (naming the path,
    /// creating nothing) when it does not.
    @Test func aDanglingSymlink() throws {
        let sandbox = Sandbox()
        try FileManager.default.createDirectory(atPath: sandbox.configDir, withIntermediateDirectories: true)
        let missingDir = sandbox.path + "/gone/deeper"
        try FileManager.default.createSymbolicLink(atPath: sandbox.settingsPath, withDestinationPath: missingDir + "/settings.json")
        for args in [["status"], ["apply"], ["status", "--json"]] {
            let result = try sandbox.notif(args, env)
            #expect(result.status == 0, "\(args): \(result)")
        }
        let set = try sandbox.notif(["set", "promotions", "on"], env)
        #expect(set.status == 1 && set.stderr.contains("nothing was changed") && set.stderr.contains(missingDir + "/settings.json"), "\(set)")
        #expect(!FileManager.default.fileExists(atPath: sandbox.path + "/gone"), "no directory made for the link's target")
        #expect(isSymlink(sandbox.settingsPath))
        // A dotfiles-style link into an existing directory: written through, the link kept.
        let dotfiles = sandbox.path + "/dotfiles"
        try FileManager.default.createDirectory(atPath: dotfiles, withIntermediateDirectories: true)
        unlink(sandbox.settingsPath)
        try FileManager.default.createSymbolicLink(atPath: sandbox.settingsPath, withDestinationPath: dotfiles + "/notif.json")
        let through = try sandbox.notif(["set", "promotions", "on"], env)
        #expect(through.status == 0, "\(through)")
        #expect(isSymlink(sandbox.settingsPath))
        #expect(sandbox.read(dotfiles + "/notif.json")?.contains("\"promotions\": true") == true)
        #expect(permissions(dotfiles + "/notif.json") == 0o600)
    }

    /// Random damage to a valid file (flipped, dropped and inserted bytes, cuts): whatever the
    /// result, notif ends normally and the bytes are still in settings.json (unless `set`
    /// accepted and rewrote them), and nothing else is written beside it.
    @Test func randomlyDamagedFilesNeverLoseTheBytes() throws {
        let seed = Soak.seed()
        var random = SeededRandom(seed: seed)
        let valid = Array(#"{"version": 1, "mode": "guest", "pushNotifications": true, "tipsAndUpdates": true, "queueAlerts": false, "promotions": false, "sound": "chime", "vibration": true, "permission": "granted", "onboardingCompleted": true, "mine": {"a": [1, "two"]}}"#.utf8)
        let runs = Soak.count(short: 40, long: 3000)
        let sandbox = Sandbox()
        var outcomes: [String: Int] = [:]
        for run in 0..<runs {
            var bytes = valid
            // Some harmless edits (spacing, a value flipped, a key renamed) so accepted files are tested too.
            switch Int.random(in: 0..<6, using: &random) {
            case 0:
                let commas = bytes.indices.filter { bytes[$0] == UInt8(ascii: ",") }
                if let at = commas.randomElement(using: &random) { bytes.insert(contentsOf: Array(" \n\t".utf8), at: at + 1) }
            case 1: bytes = Array(String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: "true", with: "false").utf8)
            case 2: bytes = Array(String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: "\"mine\"", with: "\"m\u{e9}ine\"").utf8)
            default: break
            }
            for _ in 0..<Int.random(in: 0...3, using: &random) {
                let at = Int.random(in: 0..<max(bytes.count, 1), using: &random)
                switch Int.random(in: 0..<5, using: &random) {
                case 0 where !bytes.isEmpty: bytes[at] = UInt8.random(in: 0...255, using: &random)
                case 1 where !bytes.isEmpty: bytes.remove(at: at)
                case 2: bytes.insert(UInt8.random(in: 0...255, using: &random), at: min(at, bytes.count))
                case 3: bytes = Array(bytes.prefix(at))
                default: bytes.insert(contentsOf: Array("\"x\":".utf8), at: min(at, bytes.count))
                }
            }
            try? FileManager.default.removeItem(atPath: sandbox.configDir)
            try FileManager.default.createDirectory(atPath: sandbox.configDir, withIntermediateDirectories: true)
            try Data(bytes).write(to: URL(fileURLWithPath: sandbox.settingsPath))
            let args = Self.commands[run % Self.commands.count]
            let result = try sandbox.notif(args, env)
            let what = "seed \(seed) run \(run) \(args) bytes \(visible(String(decoding: bytes, as: UTF8.self))): \(result)"
            #expect(!endedBySignal(result) && (result.status == 0 || result.status == 1), "\(what)")
            #expect(sandbox.files(in: sandbox.configDir).filter { $0.hasPrefix("settings") && $0 != "settings.json" }.isEmpty, "\(what)")
            if args.first != "set" || result.status != 0 {
                #expect(fileBytes(sandbox.settingsPath) == Data(bytes), "\(what)")
            }
            outcomes[result.status == 0 ? "accepted" : "refused", default: 0] += 1
        }
        print("[reliability] damaged settings files: \(runs) runs, seed \(seed): \(outcomes.sorted { $0.key < $1.key })")
    }
}

/// What root's permissions would hide: an unreadable file and a read-only config directory,
/// as a throwaway user.
@Suite(.enabled(if: isRoot, "needs root to make a throwaway user"))
struct ReliabilityPermissionTests {
    @Test func unreadableFileUnreadableDirectoryAndReadOnlyDirectory() throws {
        let user = try TestUser.make("notif-trperm")
        defer { deleteUser(user) }
        let env = ["NOTIF_SCHEDULER": "embedded"]
        let binary = NotifBinary.path
        let dir = user.home + "/.config/notif"
        #expect(try user.run([binary, "set", "sound", "bell"], env).status == 0)
        let original = try #require(fileBytes(user.settingsPath))
        defer { chmod(dir, 0o700); chmod(user.settingsPath, 0o600) }

        // No read permission: every command exits 1 naming the file; nothing is reset or moved.
        chmod(user.settingsPath, 0o000)
        for args in ReliabilityBadInputTests.commands {
            let result = try user.run([binary] + args, env)
            #expect(result.status == 1, "\(args): \(result)")
            #expect(result.stderr.contains(user.settingsPath) && result.stderr.contains("Permission denied"), "\(args): \(result)")
        }
        chmod(user.settingsPath, 0o600)
        #expect(fileBytes(user.settingsPath) == original)

        // A read-only config directory: reads work, a change is refused and the file kept.
        chmod(dir, 0o500)
        let status = try user.run([binary, "status"], env)
        #expect(status.status == 0 && status.stdout.contains("bell"), "\(status)")
        let set = try user.run([binary, "set", "sound", "chime"], env)
        #expect(set.status == 1 && set.stderr.contains("nothing was changed") && set.stderr.contains(dir), "\(set)")
        #expect(fileBytes(user.settingsPath) == original)

        // A directory it cannot enter: every command exits 1 naming a path inside it, nothing changes.
        chmod(dir, 0o000)
        for args in ReliabilityBadInputTests.commands {
            let result = try user.run([binary] + args, env)
            #expect(result.status == 1, "\(args): \(result)")
            #expect(result.stderr.contains(dir + "/") && result.stderr.contains("Permission denied"), "\(args): \(result)")
        }
        chmod(dir, 0o700)
        #expect(fileBytes(user.settingsPath) == original)

        // ... and a file with a mistake there: exit 1, naming the mistake, bytes kept.
        chmod(dir, 0o700)
        let corrupt = Data("{\"sound\": ".utf8)
        try corrupt.write(to: URL(fileURLWithPath: user.settingsPath))
        chmod(dir, 0o500)
        for args in ReliabilityBadInputTests.commands {
            let result = try user.run([binary] + args, env)
            #expect(result.status == 1, "\(args): \(result)")
            #expect(result.stderr.contains(user.settingsPath + " line 1, column 11: the text ends where a value should be"), "\(args): \(result)")
        }
        chmod(dir, 0o700)
        #expect(fileBytes(user.settingsPath) == corrupt)
        #expect((try FileManager.default.contentsOfDirectory(atPath: dir)).filter { ($0.hasPrefix("settings") && $0 != "settings.json") || $0.contains(".tmp-") }.isEmpty)
    }
}

/// A full disk: the config or state directory on a 64 KB tmpfs, filled up, in a private
/// mount namespace (nothing outside sees it).
@Suite(.enabled(if: canMountTmpfs, "needs root and permission to mount a tmpfs in a private mount namespace (unshare -m)"))
struct ReliabilityFullDiskTests {
    /// Runs `script` in a private mount namespace with `$CFG` (the config home) and `$STATE` on
    /// full 64 KB tmpfs mounts; `$NOTIF` is the binary; outputs go to `$OUT`, outside.
    func inFullDisk(_ sandbox: Sandbox, _ script: String) throws -> RunResult {
        let prelude = """
            set -u
            mkdir -p "$CFG" "$STATE" "$OUT"
            mount -t tmpfs -o size=64k,mode=0700 tmpfs "$CFG" || exit 99
            mount -t tmpfs -o size=64k,mode=0700 tmpfs "$STATE" || exit 99
            mkdir -p "$CFG/notif" "$STATE/notif"
            printf '%s' "$SETTINGS" > "$CFG/notif/settings.json"
            """
        let fill = """
            head -c 1048576 /dev/zero > "$CFG/fill" 2>/dev/null
            head -c 1048576 /dev/zero > "$STATE/fill" 2>/dev/null
            """
        let env = ["PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "CFG": sandbox.path + "/home/.config", "STATE": sandbox.path + "/home/.local/state",
                   "OUT": sandbox.path + "/out", "NOTIF": NotifBinary.path, "SETTINGS": Self.settings]
        return try run(["unshare", "--mount", "--propagation", "private", "sh", "-c", prelude + "\n" + fill + "\n" + script],
                       environment: env, timeout: 60)
    }

    static let settings = #"{"version": 1, "permission": "granted", "tipsAndUpdates": false, "sound": "bell", "mine": 1}"#

    @Test func aFullDiskKeepsTheOldSettingsAndSaysSo() throws {
        let sandbox = Sandbox()
        // Each command's output, the settings and the directory listing are copied out before
        // the namespace (and its tmpfs) goes away.
        let script = """
            n() { name=$1; shift; env -i HOME="$OUT/../home" PATH=/usr/bin:/bin NOTIF_SCHEDULER=embedded LANG=C.UTF-8 "$NOTIF" "$@" > "$OUT/$name.out" 2> "$OUT/$name.err"; echo $? > "$OUT/$name.rc"; }
            n set1 set tips-and-updates on
            cp "$CFG/notif/settings.json" "$OUT/after-set"
            ls -a "$CFG/notif" > "$OUT/config-listing"
            n status1 status
            printf '{"sound": ' > "$CFG/notif/settings.json"
            n corrupt status
            ls -a "$CFG/notif" > "$OUT/corrupt-listing"
            cat "$CFG/notif/settings.json" > "$OUT/corrupt-bytes"
            exit 0
            """
        let result = try inFullDisk(sandbox, script)
        #expect(result.status == 0, "\(result)")
        let out = sandbox.path + "/out/"
        func rc(_ name: String) -> String { (sandbox.read(out + name + ".rc") ?? "").trimmingCharacters(in: .whitespacesAndNewlines) }
        #expect(rc("set1") == "1", "set on a full disk: \(sandbox.read(out + "set1.err") ?? "")")
        #expect(sandbox.read(out + "set1.err")?.contains("No space left on device") == true)
        #expect(sandbox.read(out + "set1.err")?.contains("nothing was changed") == true)
        #expect(sandbox.read(out + "after-set") == Self.settings, "the old settings, byte for byte")
        #expect(sandbox.read(out + "config-listing")?.contains(".tmp-") == false, "no temp file left behind")
        #expect(rc("status1") == "0")
        #expect(sandbox.read(out + "status1.out")?.contains("Tips & Updates:     off") == true)
        // A file with a mistake on a full disk: named, exit 1, nothing written, every byte kept.
        #expect(rc("corrupt") == "1", "\(sandbox.read(out + "corrupt.err") ?? "")")
        #expect(sandbox.read(out + "corrupt.err")?.contains("line 1, column 11: the text ends where a value should be") == true)
        #expect(sandbox.read(out + "corrupt-listing")?.contains("settings.json.") == false)
        #expect(sandbox.read(out + "corrupt-bytes") == #"{"sound": "#)
    }

    @Test func aFullStateDirectoryFailsApplyButKeepsThePreference() throws {
        let sandbox = Sandbox()
        let script = """
            n() { name=$1; shift; env -i HOME="$OUT/../home" PATH=/usr/bin:/bin NOTIF_SCHEDULER=embedded LANG=C.UTF-8 "$NOTIF" "$@" > "$OUT/$name.out" 2> "$OUT/$name.err"; echo $? > "$OUT/$name.rc"; }
            rm -f "$CFG/fill"
            n set set tips-and-updates on
            cp "$CFG/notif/settings.json" "$OUT/after-set"
            n status status
            rm -f "$STATE/fill"
            n apply apply
            n status2 status
            exit 0
            """
        let result = try inFullDisk(sandbox, script)
        #expect(result.status == 0, "\(result)")
        let out = sandbox.path + "/out/"
        func rc(_ name: String) -> String { (sandbox.read(out + name + ".rc") ?? "").trimmingCharacters(in: .whitespacesAndNewlines) }
        #expect(rc("set") == "1", "\(sandbox.read(out + "set.out") ?? "") \(sandbox.read(out + "set.err") ?? "")")
        #expect(sandbox.read(out + "set.err")?.contains("the setting was saved") == true)
        #expect(sandbox.read(out + "set.out")?.contains("No space left on device") == true)
        #expect(sandbox.read(out + "after-set")?.contains("\"tipsAndUpdates\": true") == true, "the preference is kept")
        #expect(rc("status") == "0")
        #expect(sandbox.read(out + "status.out")?.contains("In sync:            no") == true, "\(sandbox.read(out + "status.out") ?? "")")
        #expect(rc("apply") == "0", "with space again apply converges: \(sandbox.read(out + "apply.err") ?? "")")
        #expect(sandbox.read(out + "status2.out")?.contains("In sync:            yes") == true, "\(sandbox.read(out + "status2.out") ?? "")")
    }
}
