import AccountClient
import CursesTerminal
import LinuxGateway
import SettingsUI
import SharedLogic
import Storage

/// The interactive page: owns the terminal, feeds input through the reducer, runs effects,
/// paints. `notif` runs it (with onboarding first when never completed); `notif onboarding`
/// runs just the wizard.
struct PageShell {
    let service: ReminderService
    let account: AccountService
    let output: Output

    enum Mode { case page, onboardingOnly }

    func run(_ mode: Mode) -> ExitCode {
        let terminal: CursesTerminal
        switch CursesTerminal.start(environment: service.context.lookup, purpose: mode == .onboardingOnly ? "onboarding" : "the settings page") {
        case .success(let started): terminal = started
        case .failure(let problem):
            output.error(problem.message + "; use `notif status` and `notif set` instead")
            return .usage
        }
        let loaded: LoadedPreferences
        do {
            loaded = try service.context.store.load()
        } catch {
            terminal.restore()
            output.error(error.description)
            return .failure
        }
        let effects = PageEffects(service: service, account: account)
        let onboarding = mode == .onboardingOnly || !loaded.fileExisted || !loaded.preferences.onboardingCompleted
        var state = AppState.start(preferences: loaded.preferences, status: effects.quickStatus(), size: terminal.size,
                                   unicode: terminal.unicode, onboarding: onboarding,
                                   exitAfterOnboarding: mode == .onboardingOnly)
        if let notice = loaded.notice { state.notice = Notice(notice, warning: true) }
        terminal.paint(SettingsRenderer.render(state))
        // Follow changes other processes make to the settings (created if missing, so it can be watched).
        try? FileIO.makeDirectory(service.context.paths.configDirectory)
        terminal.watch(directory: Posix.directory(of: service.context.store.settingsPath))
        // Opening the page re-arms reminders from the saved settings (a no-op when in sync), and
        // Account projects retry a registration that failed before.
        account.ensureRegistered()
        state = SettingsApp.update(state, effects.apply()).0
        terminal.paint(SettingsRenderer.render(state))
        while true {
            switch terminal.read() {
            case .action(let action):
                if !dispatch(action, state: &state, effects: effects, terminal: terminal) {
                    terminal.restore()
                    return .success
                }
            case .signal(let sig):
                terminal.die(by: sig)
            case .endOfInput:
                terminal.restore()
                return .success
            case .nothing:
                continue
            case .filesChanged:
                // Another process (or this one) saved the settings: show what is on disk now.
                guard let loaded = try? service.context.store.load(), loaded.preferences != state.preferences else { continue }
                state = SettingsApp.update(state, .preferencesReloaded(loaded.preferences, effects.refreshedStatus(state.status))).0
                terminal.paint(SettingsRenderer.render(state))
            }
        }
    }

    /// Runs one action and every effect it causes, painting before slow work so the page
    /// answers at once. Returns false when the page should close.
    private func dispatch(_ first: Action, state: inout AppState, effects: PageEffects, terminal: CursesTerminal) -> Bool {
        var queue = [first]
        while !queue.isEmpty {
            let (next, produced) = SettingsApp.update(state, queue.removeFirst())
            state = next
            for effect in produced {
                if effect == .quit { return false }
                terminal.paint(SettingsRenderer.render(state))
                queue.append(contentsOf: effects.perform(effect, current: state.preferences))
            }
        }
        terminal.paint(SettingsRenderer.render(state))
        return true
    }
}

