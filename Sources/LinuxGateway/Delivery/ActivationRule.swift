/// When notif lets a session bus start a notification server for it (D-Bus activation): only
/// when that server can show something, that is when the bus's activation environment has a
/// display. Otherwise every call to the service carries NO_AUTO_START, and a run that finds no
/// server waits for one to start (a scheduled run at 09:00 outside the graphical session would
/// otherwise start one that dies for want of a display, or the wrong one of several installed).
///
/// Activation is allowed when
/// - the run is inside the graphical session: `DISPLAY` or `WAYLAND_DISPLAY` in its environment,
///   with the session's variables it uses for this bus (those of the recorded session, for the
///   bus a graphical session recorded: a bus such a session started, as `dbus-launch` does, has
///   its display); or
/// - the bus has a systemd user manager (which starts D-Bus activated services) whose
///   environment has `DISPLAY` or `WAYLAND_DISPLAY`: a desktop that activates its server (xfce,
///   MATE) puts them there at login (`dbus-update-activation-environment --systemd`).
public enum ActivationRule {
    static let displays = ["DISPLAY", "WAYLAND_DISPLAY"]

    /// - Parameters:
    ///   - lookup: this process's environment.
    ///   - changes: the session's variables used for this bus, as changes to it.
    ///   - managerEnvironment: asked only when the first rule does not allow it; nil when the bus
    ///     has no systemd user manager.
    public static func allows(lookup: (String) -> String?, changes: [String: String?], managerEnvironment: () -> [String]?) -> Bool {
        let ownDisplay = displays.contains { name in
            let value: String? = if let change = changes[name] { change } else { lookup(name) }
            return value.map { !$0.isEmpty } ?? false
        }
        return ownDisplay || hasDisplay(managerEnvironment())
    }

    /// Whether a list of `NAME=value` assignments (a manager's environment) sets a display.
    public static func hasDisplay(_ environment: [String]?) -> Bool {
        (environment ?? []).contains { assignment in
            displays.contains { assignment.hasPrefix($0 + "=") && assignment.count > $0.count + 1 }
        }
    }
}
