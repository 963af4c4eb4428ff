import CursesTerminal
import Glibc
import LinuxGateway
import SettingsUI
import SharedLogic
import Storage

/// One run of the page: keys, files changed by others and results from the workers go through
/// the reducer; effects go to the workers (`Lane`s), never run on the key loop; every change is
/// painted at once. The first frame is drawn before anything is looked up.
final class PageSession {
    let terminal: CursesTerminal
    let effects: PageEffects
    let mailbox: Mailbox
    var state: AppState
    let output: Output
    /// Saves and settings reads, in order; the scheduler (applies and reads); tests; the server
    /// and the history; the chooser's look at the schedulers. Each kind waits only for its own. Started when first needed, after the
    /// first frame.
    lazy var saves = Lane()
    lazy var scheduler = Lane()
    lazy var tests = Lane()
    lazy var server = Lane()
    /// The chooser's look at the schedulers: never behind an apply that hangs.
    lazy var checks = Lane()
    /// The settings' and the state directory, for what other processes change.
    let directories = DirectoryWatch()

    init(terminal: CursesTerminal, effects: PageEffects, mailbox: Mailbox, state: AppState, output: Output) {
        self.terminal = terminal
        self.effects = effects
        self.mailbox = mailbox
        self.state = state
        self.output = output
    }

    var paths: NotifPaths { effects.context.paths }

    func run() -> ExitCode {
        paint()
        watchFiles()
        terminal.wake(on: mailbox.readFD)
        if let fd = directories.fd { terminal.wake(on: fd) }
        if let code = dispatch(.opened) { return code }
        paint()
        while true {
            var code: ExitCode?
            switch terminal.read() {
            case .action(let action):
                code = dispatch(action)
            case .woken(mailbox.readFD):
                for action in mailbox.take() where code == nil { code = dispatch(action) }
            case .woken:
                for change in OutsideChanges.classify(directories.changes(), paths: paths, settingsFiles: settingsFiles) where code == nil {
                    // A link made again may lead to another directory: watched from now on.
                    if change == .settings { watchFiles() }
                    code = dispatch(.changedElsewhere(change))
                }
            case .suspend:
                suspend()
            case .signal(let sig):
                let report = finish()
                report.print(to: output)
                terminal.die(by: sig)
            case .endOfInput:
                let report = finish()
                report.print(to: output)
                return report.exitCode
            case .nothing:
                continue
            }
            if let code { return code }
            paint()
        }
    }

    /// Runs one action through the reducer and hands its effects to the workers. Returns the
    /// exit code when the page ends.
    func dispatch(_ action: Action) -> ExitCode? {
        let (next, produced) = SettingsApp.update(state, action)
        state = next
        for effect in produced {
            switch effect {
            case .quit:
                let report = finish()
                report.print(to: output)
                return report.exitCode
            case .suspend:
                suspend()
            case .editSettings:
                if let code = editSettings() { return code }
            default:
                let effects = self.effects, mailbox = self.mailbox
                lane(for: effect).submit {
                    if let answer = effects.perform(effect) { mailbox.post(answer) }
                }
            }
        }
        return nil
    }

    func lane(for effect: Effect) -> Lane {
        switch Self.laneKind(for: effect) {
        case .saves: return saves
        case .scheduler: return scheduler
        case .tests: return tests
        case .checks: return checks
        case .server: return server
        }
    }

    /// The worker lanes, by what they carry.
    enum LaneKind: Equatable {
        case saves, scheduler, tests, checks, server
    }

    /// Which lane carries `effect`: work of one kind runs in order, and waits only for its own kind.
    static func laneKind(for effect: Effect) -> LaneKind {
        switch effect {
        case .commit, .reloadPreferences: return .saves
        case .apply, .refreshStatus: return .scheduler
        case .sendTest: return .tests
        case .checkSchedulers: return .checks
        case .resetSettings: return .saves
        case .loadHistory, .registerDevice, .suspend, .quit, .editSettings: return .server
        }
    }

    func paint() {
        terminal.paint(SettingsRenderer.render(state))
    }

    /// Ctrl-Z or SIGTSTP: the terminal as it was, stopped; on `fg`, the page painted whole.
    func suspend() {
        let size = terminal.suspend()
        state = SettingsApp.update(state, .resize(size)).0
        paint()
    }

    /// `e` while settings.json cannot be read: the terminal goes to the person's editor, as
    /// `notif edit` (checked before it is saved); then the page reads the settings again and
    /// says how the edit ended.
    func editSettings() -> ExitCode? {
        var outcome = SettingsEditor.Outcome.unchanged
        let context = effects.context
        let size = terminal.lend {
            outcome = SettingsEditor(store: context.store, lookup: context.lookup, output: output).run()
        }
        state = SettingsApp.update(state, .resize(size)).0
        let said: String
        switch outcome {
        case .unchanged: said = "settings.json is unchanged."
        case .saved: said = "Saved settings.json."
        case .notSaved(let why): said = why
        case .stopped(let signal, let why):
            // The page ends as that signal asks (its own handler sees it now).
            said = why
            raise(signal)
        }
        state.notice = Notice(said, warning: outcome != .saved)
        // Read again only when the edit was saved: read now, a file left as it was would put
        // "it still cannot be read" (the answer to r) in place of how the edit ended.
        return outcome == .saved ? dispatch(.changedElsewhere(.settings)) : nil
    }

    /// settings.json and, when it is a link (dotfiles kept elsewhere), the file it leads to now:
    /// an edit of the file, or the link made again to lead elsewhere, is a change of the settings.
    var settingsFiles: [String] {
        let path = paths.settingsFile
        return [path] + [Posix.resolved(path)].compactMap { $0 }.filter { $0 != path }
    }

    /// Follows what other processes change: the settings, an apply somewhere, a delivery.
    func watchFiles() {
        for directory in [paths.configDirectory, paths.stateDirectory] {
            // Created when missing, so it can be watched (notif creates both anyway).
            try? FileIO.makeDirectory(directory)
        }
        // Watching a directory twice is one watch.
        for file in settingsFiles { directories.watch(directory: Posix.directory(of: file)) }
        directories.watch(directory: paths.stateDirectory)
    }

    /// Ends the page: saves on their way, and an apply of saved changes, get a moment (0.1 s in
    /// all) to finish; programs still running are then ended with their process groups and the
    /// terminal is given back. Says what is not saved or not scheduled.
    func finish() -> QuitReport {
        let deadline = Lane.deadline(in: 0.1)
        if !state.pendingSaves.isEmpty { _ = saves.waitUntilIdle(deadline: deadline) }
        if state.scheduling.stale { _ = scheduler.waitUntilIdle(deadline: deadline) }
        for action in mailbox.take() {
            switch action {
            case .saved, .commitFailed, .applied: state = SettingsApp.update(state, action).0
            default: break
            }
        }
        let stopped = ChildProcesses.endAll()
        terminal.restore()
        return QuitReport(notSaved: state.notYetSaved, saveProblem: state.saveProblem,
                          unscheduled: state.scheduling.stale, stopped: stopped, settingsNotices: state.settingsNotices,
                          settingsProblem: state.settingsProblem)
    }
}
