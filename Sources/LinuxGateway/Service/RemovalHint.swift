import SharedLogic
import Storage

extension ReminderService {
    /// How the person stops an entry notif could not remove from `kind` (reminder `id`, or nil
    /// for all of notif's there): fix the cause and let `notif apply` retry, or remove it by hand.
    public func removalHint(for kind: SchedulerKind, id: String?) -> String {
        let retry = "fix that and run `notif apply`, or "
        let tag = context.configuration.tag
        switch kind {
        case .cron:
            return retry + "delete notif's managed block (from `# BEGIN notif managed block \(tag)` to `# END notif managed block \(tag)`) with `crontab -e`"
        case .systemd:
            let units = Posix.join(context.paths.home, ".config/systemd/user")
            let timer = SystemdUnits.timerName(id ?? "*", tag: tag)
            return retry + "run `systemctl --user disable --now \(timer)` and delete its files in \(units)"
        case .embedded:
            let directory = context.paths.stateFile("embedded")
            return retry + "delete \(Posix.join(directory, EmbeddedEntry.fileName(id ?? "*", tag: tag))) (it fires only while `notif daemon` runs)"
        }
    }
}
