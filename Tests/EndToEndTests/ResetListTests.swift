import Foundation
import LinuxGateway
import Testing

/// The configuration list (`~/.local/state/notif/configurations`, under HOME): every
/// apply that writes entries puts its configuration there, so `notif reset --entries`, run with
/// no `XDG_*` variable and no daemon, still finds built-in entries under directories nothing
/// else names, and says them by their settings file. A list that is corrupt or cannot be read
/// is named and stops nothing else; concurrent applies keep every line.
@Suite(.enabled(if: isRoot, "needs root for throwaway users"))
struct ResetListTests {
    let zone = ["TZ": "Europe/Berlin"]

    func pair(_ user: TestUser, _ name: String) -> [String: String] {
        zone.merging(["XDG_CONFIG_HOME": user.home + "/\(name) config", "XDG_STATE_HOME": user.home + "/\(name) state"]) { $1 }
    }
    func settings(_ env: [String: String]) -> String { env["XDG_CONFIG_HOME"]! + "/notif/settings.json" }
    func entry(_ env: [String: String]) -> String {
        env["XDG_STATE_HOME"]! + "/notif/embedded/tips-and-updates." + ConfigurationID(settingsPath: settings(env), isDefault: false).tag
    }
    func list(_ user: TestUser) -> String { user.home + "/.local/state/notif/configurations" }
    func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

    /// The reminder on in the built-in schedule of `env`'s configuration.
    func builtInEntry(_ user: TestUser, _ binary: String, _ env: [String: String]) throws {
        let forced = env.merging(["NOTIF_SCHEDULER": "embedded"]) { $1 }
        #expect(try user.run([binary, "permission", "grant"], forced).status == 0)
        let set = try user.run([binary, "set", "tips-and-updates", "on"], forced)
        #expect(set.status == 0 && !set.stderr.contains("reset --entries"), "\(set)")
        #expect(exists(entry(env)), "\(entry(env))")
    }

    @Test(.hangGuard)
    func builtInEntriesOnlyTheListNamesAreRemovedAndNamedByTheirSettings() throws {
        let user = try TestUser.make("notif-tr14-list")
        defer { deleteUser(user) }
        let sandbox = Sandbox()
        let binary = try NotifBinary.publicCopy(in: sandbox)
        let b = pair(user, "b")
        try builtInEntry(user, binary, b)
        let text = user.read(list(user)) ?? ""
        #expect(text.hasPrefix("# notif: ") && text.contains("\"settings\":\"\(settings(b))\""), "\(text)")

        // No XDG variable, no daemon, no crontab line or unit names b's directories: only the list.
        let reset = try user.run([binary, "reset", "--entries"], zone)
        #expect(reset.status == 0 && reset.stderr.isEmpty, "\(reset)")
        #expect(reset.stdout.contains("Removed from the built-in schedule: tips-and-updates for \(settings(b)).\n"), "\(reset.stdout)")
        #expect(reset.stdout.contains(list(user)), "the Looked in line names the list: \(reset.stdout)")
        #expect(!exists(entry(b)), "the entry is gone")
        #expect(!exists(list(user)), "its record went with it, and nothing was left to keep")
        #expect(user.read(settings(b))?.contains("\"tipsAndUpdates\": true") == true, "the settings stay")
        let again = try user.run([binary, "reset", "--entries"], zone)
        #expect(again.status == 0 && again.stdout.hasPrefix("No entries of notif's were found.\n"), "\(again)")
    }

    @Test(.hangGuard)
    func aCorruptLineIsNamedKeptAndStopsNothingElse() throws {
        let user = try TestUser.make("notif-tr14-listbad")
        defer { deleteUser(user) }
        let sandbox = Sandbox()
        let binary = try NotifBinary.publicCopy(in: sandbox)
        let b = pair(user, "b"), c = pair(user, "c")
        try builtInEntry(user, binary, b)
        try builtInEntry(user, binary, c)
        // A torn line between b's and c's, and c's directories gone (moved away by hand).
        let lines = (user.read(list(user)) ?? "").split(separator: "\n").map(String.init)
        #expect(lines.count == 3, "\(lines)")
        let torn = "{\"settings\":\"/home/x/.config/notif/sett"
        #expect(try user.run(["sh", "-c", "printf '%s\\n' \"$1\" \"$2\" \"$3\" \"$4\" > \"$0\"", list(user), lines[0], lines[1], torn, lines[2]]).status == 0)
        #expect(try user.run(["rm", "-rf", c["XDG_STATE_HOME"]!, c["XDG_CONFIG_HOME"]!]).status == 0)

        let reset = try user.run([binary, "reset", "--entries"], zone)
        #expect(reset.status == 1, "\(reset)")
        #expect(reset.stderr.contains("notif: \(list(user)), line 3: not JSON") && reset.stderr.contains("check it, then delete the line"), "\(reset.stderr)")
        #expect(!reset.stderr.contains("may still fire"), "no entry it found is left: \(reset.stderr)")
        #expect(reset.stdout.contains("Removed from the built-in schedule: tips-and-updates for \(settings(b)).\n"), "\(reset.stdout)")
        #expect(!exists(entry(b)))
        // b's and c's records went (c's directories are simply gone); the torn line stays, byte for byte.
        #expect(user.read(list(user)) == lines[0] + "\n" + torn + "\n", "\(user.read(list(user)) ?? "none")")
        #expect(try user.run([binary, "reset", "--entries"], zone).status == 1, "still named until the line is dealt with")
    }

    @Test(.hangGuard)
    func anUnreadableListIsNamedAndTheRestIsStillReset() throws {
        let user = try TestUser.make("notif-tr14-listperm")
        defer { deleteUser(user) }
        let sandbox = Sandbox()
        let binary = try NotifBinary.publicCopy(in: sandbox)
        let b = pair(user, "b")
        try builtInEntry(user, binary, b)
        #expect(chmod(list(user), 0) == 0)
        let reset = try user.run([binary, "reset", "--entries"], b)
        #expect(reset.status == 1, "\(reset)")
        #expect(reset.stderr.contains("notif: cannot read \(list(user)): Permission denied; until it can be read, entries of a configuration only it names may still be there"),
                "\(reset.stderr)")
        #expect(reset.stdout.contains("Removed from the built-in schedule: tips-and-updates for \(settings(b)).\n"), "\(reset.stdout)")
        #expect(!exists(entry(b)), "found through this run's own variables")
        #expect(chmod(list(user), 0o600) == 0)
    }

    /// Applies of many configurations at once, each adding its line under the lock: none is lost.
    @Test(.hangGuard)
    func applyingManyConfigurationsAtOnceKeepsEveryLine() throws {
        let user = try TestUser.make("notif-tr14-listrace")
        defer { deleteUser(user) }
        let sandbox = Sandbox()
        let binary = try NotifBinary.publicCopy(in: sandbox)
        let count = 8
        let script = """
            for i in $(seq 1 \(count)); do
              XDG_CONFIG_HOME="$HOME/c$i" XDG_STATE_HOME="$HOME/s$i" NOTIF_SCHEDULER=embedded "$0" permission grant >/dev/null || exit 1
            done
            for i in $(seq 1 \(count)); do
              XDG_CONFIG_HOME="$HOME/c$i" XDG_STATE_HOME="$HOME/s$i" NOTIF_SCHEDULER=embedded "$0" set tips-and-updates on >/dev/null &
            done
            wait
            """
        let ran = try user.run(["sh", "-c", script, binary], zone)
        #expect(ran.status == 0, "\(ran)")
        let records = (user.read(list(user)) ?? "").split(separator: "\n").filter { $0.hasPrefix("{") }
        #expect(Set(records).count == count, "\(records.joined(separator: "\n"))")
        let reset = try user.run([binary, "reset", "--entries"], zone)
        #expect(reset.status == 0, "\(reset)")
        for i in 1...count {
            #expect(reset.stdout.contains("tips-and-updates for \(user.home)/c\(i)/notif/settings.json"), "\(i): \(reset.stdout)")
        }
        #expect(!exists(list(user)))
    }
}
