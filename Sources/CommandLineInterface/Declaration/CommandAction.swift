/// What a declared command does: each command the parser can return carries one, and notif
/// runs it by this case (so every declared command has exactly one handler, checked by the compiler).
public enum CommandAction: Sendable, Equatable {
    case onboarding, status, set, permission, apply, edit, deliver, history, test, daemon, reset
    case accountLogin, accountLogout, accountStatus
    case completion, complete, help, reminderActions
}
