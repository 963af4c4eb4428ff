import Glibc
import SharedLogic
import Storage

/// The trust rule (`TrustedPath`) for what an entry names, kept in both places it matters: when an
/// entry is written (`apply`, `set`, the page, `daemon --install-autostart`) and when a scheduled
/// run starts (`deliver`, `daemon`). An entry names notif's program and the places its run reads
/// (HOME, the configuration and state directories, a zone file TZ names); if another user could put something at one
/// of them, the entry would one day run their program, or act on their files, as this user.
extension ReminderService {
    /// Why an entry may not name `program` and this run's places, with what to do; nil when it may.
    public func untrusted(program: String) -> String? {
        if let problem = context.trust(program) {
            return "notif's program \(program) is in a place other users can change (\(problem)), so an entry naming it could one day run "
                + "their program as you: install notif (`make install`, or the Debian package) and run the installed notif"
        }
        let places = [("HOME", context.paths.home), ("the configuration directory", context.paths.configHome),
                      ("the state directory", context.paths.stateHome)]
        for (name, place) in places {
            if let problem = context.trust(place) {
                return "\(name) \(place) is in a place other users can change (\(problem)), so an entry's run could act on files they put there: "
                    + "keep notif's files in directories of your own (HOME, XDG_CONFIG_HOME, XDG_STATE_HOME)"
            }
        }
        // A zone file named by path sets the hour the reminder comes: another user who could
        // replace it could move the reminder anywhere in the day.
        if var zone = context.lookup("TZ") {
            if zone.hasPrefix(":") { zone.removeFirst() }
            if zone.hasPrefix("/"), let problem = context.trust(zone) {
                return "TZ names the zone file \(zone), which is in a place other users can change (\(problem)), so they could move your reminder to any hour: "
                    + "keep the zone file in a directory of your own, or set TZ to a zone name such as Europe/Berlin"
            }
        }
        return nil
    }

    /// Why this scheduled run must do nothing (its program or places fail the rule), or nil.
    public func untrustedRun() -> String? {
        guard let program = context.executable else { return nil }
        return untrusted(program: program).map { "this run did nothing: " + $0 }
    }

    /// Records why a scheduled run did nothing, where that is safe: this run's delivery log when
    /// its places pass, else the log of the account's default configuration when those pass.
    public func recordRefusal(_ reminder: String, kind: DeliveryKind, _ why: String) {
        var candidates = [context.paths]
        if let home = context.accountHome() {
            candidates.append(NotifPaths(home: home, configHome: Posix.join(home, ".config"), stateHome: Posix.join(home, ".local/state")))
        }
        guard let safe = candidates.first(where: { paths in
            RunOwnership.problem(paths: paths) == nil && [paths.home, paths.stateHome].allSatisfy { context.trust($0) == nil }
        }) else { return }
        var recording = context
        recording.paths = safe
        _ = ReminderService(context: recording).log(reminder, kind: kind, now: context.clock.now(), .failed, why)
    }
}
