import AccountClient
import Glibc
import CursesTerminal
import LinuxGateway
import SettingsUI
import SharedLogic
import Storage

/// The interactive page: owns the terminal and runs `PageSession`. `notif` runs it (with
/// onboarding first when never completed); `notif onboarding` runs just the wizard.
struct PageShell {
    let service: ReminderService
    let account: AccountService
    let output: Output
    /// Why `TZ` names no zone (times are UTC), shown in the status area.
    var zoneProblem: String? = nil

    enum Mode { case page, onboardingOnly }

    func run(_ mode: Mode) -> ExitCode {
        let terminal: CursesTerminal
        switch CursesTerminal.start(environment: service.context.lookup, purpose: mode == .onboardingOnly ? "onboarding" : "the settings page") {
        case .success(let started): terminal = started
        case .failure(let problem):
            output.error(problem.message + (problem.fallback.map { "; try again with TERM=\($0), or use" } ?? "; use")
                         + " `notif status` and `notif set` instead")
            return .usage
        }
        var loaded = LoadedPreferences(preferences: NotificationPreferences())
        var problem: String?
        do {
            // A file that does not parse is looked at again after a quiet moment (it may be being written).
            loaded = try service.context.store.loadSettled(missing: false)
        } catch {
            // The page shows a file with a mistake in place of the settings; other problems end it.
            guard error.isInvalid, mode == .page else {
                terminal.restore()
                output.error(error.description)
                return .failure
            }
            problem = error.description
        }
        guard let mailbox = Mailbox() else {
            terminal.restore()
            output.error("the settings page cannot start: no pipe for its workers (\(Posix.message(for: errno)))")
            return .failure
        }
        // Onboarding is for a first start (or one never finished, while its question is still
        // open), never for a file that did not parse. Someone who answered the permission
        // elsewhere (`notif permission`, `notif set`) gets the page, from the Settings button too.
        let unfinished = !loaded.preferences.onboardingCompleted && loaded.preferences.permission == .notDetermined
        let onboarding = mode == .onboardingOnly || problem == nil && (!loaded.fileExisted || unfinished)
        var state = AppState.start(preferences: loaded.preferences, status: SchedulerStatus(checked: false), size: terminal.size,
                                   unicode: terminal.unicode, onboarding: onboarding,
                                   exitAfterOnboarding: mode == .onboardingOnly)
        state.settingsProblem = problem
        state.zoneProblem = zoneProblem
        let session = PageSession(terminal: terminal, effects: PageEffects(service: service, account: account), mailbox: mailbox,
                                  state: state, output: output)
        // Columns as the C library counts them, which is how ncurses places what the page draws.
        return TextWidth.$columns.withValue(.system) { session.run() }
    }
}
