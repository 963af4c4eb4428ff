import Foundation
import Testing

/// The completions `make install` writes, found where each shell looks for them, and a Tab
/// typed in a real interactive bash (with the bash-completion package) completing from them.
@Suite struct CompletionInstallTests {
    static let bashCompletion = "/usr/share/bash-completion/bash_completion"
    static let settings = ["push-notifications", "tips-and-updates", "queue-alerts", "promotions", "sound", "vibration", "scheduler"]

    /// `make install-files` into a prefix in the sandbox; returns the prefix.
    static func install(_ sandbox: Sandbox) throws -> String {
        let prefix = sandbox.path + "/prefix"
        let result = try run(["make", "-s", "-C", packageRoot, "install-files", "PREFIX=\(prefix)", "RELEASE_BIN=\(NotifBinary.path)"],
                             environment: ["PATH": "/usr/bin:/bin", "HOME": sandbox.path])
        guard result.status == 0 else { throw E2EFailure("make install-files: \(result)") }
        return prefix
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: bashCompletion), "needs bash-completion"))
    func bashCompletionLoadsTheInstalledScriptByItself() throws {
        let sandbox = Sandbox()
        let prefix = try Self.install(sandbox)
        let result = try run(["bash", "--norc", "--noprofile", "-c", "source \(Self.bashCompletion); __load_completion notif && complete -p notif"],
                             environment: ["PATH": "/usr/bin:/bin", "HOME": sandbox.path, "XDG_DATA_DIRS": prefix + "/share"])
        #expect(result.status == 0 && result.stdout == "complete -F _notif notif\n", "\(result)")
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/zsh"), "needs zsh"))
    func zshRegistersTheInstalledFunction() throws {
        let sandbox = Sandbox()
        let prefix = try Self.install(sandbox)
        let script = "fpath=(\(prefix)/share/zsh/vendor-completions $fpath); autoload -Uz compinit && compinit -u -d \(sandbox.path)/zcompdump; print -r -- ${_comps[notif]}"
        let result = try run(["zsh", "-f", "-c", script], environment: ["PATH": "/usr/bin:/bin", "HOME": sandbox.path])
        #expect(result.status == 0 && result.stdout == "_notif\n", "\(result)")
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/fish"), "needs fish"))
    func fishFindsTheInstalledCompletions() throws {
        let sandbox = Sandbox()
        let prefix = try Self.install(sandbox)
        let script = "set -g fish_complete_path \(prefix)/share/fish/vendor_completions.d $fish_complete_path; complete -C 'notif se'; complete -C 'notif set '"
        let result = try run(["fish", "--no-config", "-c", script], environment: ["PATH": prefix + "/bin:/usr/bin:/bin", "HOME": sandbox.path])
        let words = result.stdout.split(separator: "\n").map { String($0.prefix { $0 != "\t" }) }
        #expect(result.status == 0 && words.sorted() == (["set"] + Self.settings).sorted(), "\(result)")
    }

    /// Tab in an interactive bash in tmux: `notif se` becomes `notif set `, two Tabs after
    /// `notif set ` list the setting names, and after `notif set sound ` its values; `notif set "so`
    /// becomes `notif set "sound" `.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: bashCompletion), "needs bash-completion"), .hangGuard)
    func tabInARealBashCompletesCommandsAndSettings() throws {
        let sandbox = Sandbox()
        let prefix = try Self.install(sandbox)
        let pane = try TmuxPane("env -i TERM=tmux-256color LANG=C.UTF-8 HOME=\(sandbox.path) PATH=\(prefix)/bin:/usr/bin:/bin XDG_DATA_DIRS=\(prefix)/share PS1='$ ' bash --norc --noprofile")
        try pane.send(keys: ["source \(Self.bashCompletion); echo loaded-completion", "Enter"])
        try pane.waitFor("\nloaded-completion")
        try pane.send(keys: ["notif se", "Tab"])
        try pane.waitFor("$ notif set\n")   // (tmux drops the space the completion adds at the end of the line)
        try pane.send(keys: ["C-u", "notif set ", "Tab", "Tab"])
        let screen = try pane.waitFor("tips-and-updates")
        for setting in Self.settings { #expect(screen.contains(setting), "\(setting) not offered:\n\(screen)") }
        try pane.send(keys: ["sou", "Tab"])
        try pane.waitFor("$ notif set sound\n")
        try pane.send(keys: ["Tab", "Tab"])
        let values = try pane.waitFor("silent")
        #expect(["default", "chime", "bell"].allSatisfy { values.contains($0) }, "\(values)")
        // After an opening quote too; bash closes it.
        try pane.send(keys: ["C-u", "notif set \"so", "Tab"])
        try pane.waitFor("$ notif set \"sound\"\n")
    }
}
