import Foundation

/// A desktop's notification server as the desktop matrix starts it headless: its Debian
/// packages, the screen it needs, how it is started and configured, what it calls itself, how a
/// button is pressed on it, how its bubble is seen, and its own Do Not Disturb switch.
enum NotificationServer: String, CaseIterable, Sendable {
    case dunst
    case notificationDaemon = "notification-daemon"
    case xfce4Notifyd = "xfce4-notifyd"
    case mate = "mate-notification-daemon"
    case lxqt = "lxqt-notificationd"
    case plasma
    case gnomeWayland = "gnome-shell-wayland"
    case gnomeX11 = "gnome-shell-x11"
    case mako
    case swaync

    /// The servers `make test` runs: dunst and the ones that start in a second.
    static let quick: [NotificationServer] = [.dunst, .notificationDaemon, .xfce4Notifyd, .mate]

    /// The servers this run tests: `NOTIF_DESKTOPS` (`all`, or names separated by commas; what
    /// `make desktops` sets), `quick` otherwise.
    static var chosen: [NotificationServer] {
        let asked = ProcessInfo.processInfo.environment["NOTIF_DESKTOPS"] ?? ""
        if asked.isEmpty { return quick }
        if asked == "all" { return allCases }
        return asked.split(separator: ",").map { word in
            guard let server = NotificationServer(rawValue: String(word)) else {
                fatalError("NOTIF_DESKTOPS: no server named \(word) (known: \(allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            return server
        }
    }

    /// A short name for its throwaway user (notif-tr20-TAG).
    var tag: String {
        switch self {
        case .notificationDaemon: return "nd"
        case .xfce4Notifyd: return "xfce"
        case .mate: return "mate"
        case .lxqt: return "lxqt"
        case .gnomeWayland: return "gnomew"
        case .gnomeX11: return "gnomex"
        default: return rawValue
        }
    }

    /// The desktop it belongs to, for the results table.
    var desktop: String {
        switch self {
        case .dunst: return "dunst (any X11 desktop, i3)"
        case .notificationDaemon: return "GNOME Flashback, Budgie, others (notification-daemon)"
        case .xfce4Notifyd: return "Xfce"
        case .mate: return "MATE"
        case .lxqt: return "LXQt"
        case .plasma: return "KDE Plasma 5 (X11)"
        case .gnomeWayland: return "GNOME (Wayland)"
        case .gnomeX11: return "GNOME (X11)"
        case .mako: return "sway and other wlroots desktops (mako)"
        case .swaync: return "sway (SwayNotificationCenter)"
        }
    }

    /// What `GetServerInformation` names, checked before anything is sent: a `Notify` may have
    /// started another server through an activation file.
    var serverName: String {
        switch self {
        case .dunst: return "dunst"
        case .notificationDaemon, .mate: return "Notification Daemon"
        case .xfce4Notifyd: return "Xfce Notify Daemon"
        case .lxqt: return "lxqt-notificationd"
        case .plasma: return "Plasma"
        case .gnomeWayland, .gnomeX11: return "gnome-shell"
        case .mako: return "mako"
        case .swaync: return "SwayNotificationCenter"
        }
    }

    /// Debian packages it needs (beyond the test packages: Xvfb, dbus, ImageMagick, xdotool).
    var packages: [String] {
        switch self {
        case .dunst: return ["dunst"]
        case .notificationDaemon: return ["notification-daemon"]
        case .xfce4Notifyd: return ["xfce4-notifyd", "xfconf"]
        case .mate: return ["mate-notification-daemon", "dconf-gsettings-backend"]
        case .lxqt: return ["lxqt-notificationd", "lxqt-qtplugin"]
        case .plasma: return ["plasma-workspace", "plasma-desktop"]
        case .gnomeWayland, .gnomeX11: return ["gnome-shell", "gjs", "dconf-gsettings-backend"]
        case .mako: return ["mako-notifier", "sway", "grim"]
        case .swaync: return ["sway-notification-center", "sway", "grim", "wayvnc"]
        }
    }

    /// The screen it draws on.
    enum Screen { case xvfb, sway, gnomeHeadless }

    var screen: Screen {
        switch self {
        case .mako, .swaync: return .sway
        case .gnomeWayland: return .gnomeHeadless
        default: return .xvfb
        }
    }

    /// The program and arguments; `home` is the user's.
    func command(home: String) -> [String] {
        switch self {
        case .dunst: return ["/usr/bin/dunst", "-conf", home + "/.config/dunst/dunstrc"]
        case .notificationDaemon: return ["/usr/lib/notification-daemon/notification-daemon"]
        case .xfce4Notifyd: return ["/usr/lib/x86_64-linux-gnu/xfce4/notifyd/xfce4-notifyd"]
        case .mate: return ["/usr/lib/mate-notification-daemon/mate-notification-daemon"]
        case .lxqt: return ["/usr/bin/lxqt-notificationd"]
        case .plasma: return ["/usr/bin/plasmashell"]
        case .gnomeWayland: return ["/usr/bin/gnome-shell", "--headless", "--wayland", "--no-x11", "--virtual-monitor", "1280x800"]
        case .gnomeX11: return ["/usr/bin/gnome-shell", "--x11", "--replace"]
        case .mako: return ["/usr/bin/mako"]
        case .swaync: return ["/usr/bin/swaync"]
        }
    }

    /// Variables the server (and everything on its session) needs.
    var environment: [String: String] {
        switch self {
        case .lxqt: return ["QT_QPA_PLATFORMTHEME": "lxqt"]
        case .plasma: return ["QT_QPA_PLATFORM": "xcb", "XDG_CURRENT_DESKTOP": "KDE", "KDE_FULL_SESSION": "true"]
        case .gnomeWayland: return ["XDG_SESSION_TYPE": "wayland", "XDG_CURRENT_DESKTOP": "GNOME"]
        case .gnomeX11: return ["XDG_SESSION_TYPE": "x11", "XDG_CURRENT_DESKTOP": "GNOME"]
        default: return [:]
        }
    }

    /// Files written into the user's home before it starts (path below HOME, contents).
    var files: [(String, String)] {
        switch self {
        // Its context menu (where the buttons are) goes through the dmenu program named here.
        case .dunst: return [(".config/dunst/dunstrc", "[global]\ndmenu = \(DesktopTools.dmenuPicker)\n")]
        case .lxqt: return [(".config/lxqt/lxqt.conf", "[General]\nicon_theme=Adwaita\n")]
        // Its Do Not Disturb is a mode that must say what it does.
        case .mako: return [(".config/mako/config", "icon-path=/usr/share/icons/Adwaita\n\n[mode=do-not-disturb]\ninvisible=1\n")]
        // Else a "Screen Lock disabled" banner comes first.
        case .gnomeWayland, .gnomeX11: return [(".local/share/gnome-shell/lock-warning-shown", "")]
        default: return []
        }
    }

    /// Seconds it may take to take its bus name.
    var startsWithin: Double {
        switch self {
        case .plasma: return 90
        case .gnomeWayland, .gnomeX11: return 60
        default: return 15
        }
    }

    /// The X11 window class of its bubbles, for servers that draw each bubble as a window.
    var bubbleClass: String? {
        switch self {
        case .notificationDaemon: return "notification-daemon"
        case .xfce4Notifyd: return "xfce4-notifyd"
        case .mate: return "mate-notification-daemon"
        case .lxqt: return "lxqt-notificationd"
        case .plasma: return "plasmashell"
        default: return nil
        }
    }

    /// How a person presses a button on it.
    enum Press {
        /// A click at this offset from the bubble window's top-left corner.
        case inWindow(turnOff: (Int, Int), settings: (Int, Int))
        /// A click at these screen points, after the pointer rested on `hover` (GNOME shows the
        /// buttons of a banner under the pointer), through the compositor's remote pointer.
        case gnome(hover: (Int, Int), turnOff: (Int, Int), settings: (Int, Int))
        /// A click with sway's seat pointer at these screen points.
        case sway(turnOff: (Int, Int), settings: (Int, Int))
        /// dunst's context menu (`dunstctl context`) with the button's line picked.
        case dunstMenu
        /// `makoctl invoke`.
        case makoctl
    }

    /// Measured on notif's reminder at 1280x800 (the buttons' places depend on the text).
    var press: Press {
        switch self {
        case .dunst: return .dunstMenu
        case .notificationDaemon: return .inWindow(turnOff: (241, 104), settings: (311, 104))
        case .xfce4Notifyd: return .inWindow(turnOff: (271, 89), settings: (363, 89))
        case .mate: return .inWindow(turnOff: (318, 90), settings: (388, 90))
        case .lxqt: return .inWindow(turnOff: (104, 161), settings: (198, 161))
        // Plasma makes an action named "settings" its configure button (top right).
        case .plasma: return .inWindow(turnOff: (298, 103), settings: (287, 16))
        case .gnomeWayland, .gnomeX11: return .gnome(hover: (640, 75), turnOff: (513, 151), settings: (762, 151))
        case .mako: return .makoctl
        case .swaync: return .sway(turnOff: (911, 114), settings: (1149, 114))
        }
    }

    /// Its own Do Not Disturb switch (a command run as the user on its session), or nil when it
    /// has none; Plasma's is an inhibition held by a live connection (`DesktopTools.inhibit`).
    var doNotDisturb: [String]? {
        switch self {
        case .dunst: return ["dunstctl", "set-paused", "true"]
        case .notificationDaemon, .plasma: return nil
        case .xfce4Notifyd: return ["xfconf-query", "-c", "xfce4-notifyd", "-p", "/do-not-disturb", "-n", "-t", "bool", "-s", "true"]
        case .mate: return ["gsettings", "set", "org.mate.NotificationDaemon", "do-not-disturb", "true"]
        case .lxqt: return ["sh", "-c", "printf '[General]\\ndoNotDisturb=true\\n' > \"$HOME/.config/lxqt/notifications.conf\""]
        case .gnomeWayland, .gnomeX11: return ["gsettings", "set", "org.gnome.desktop.notifications", "show-banners", "false"]
        case .mako: return ["makoctl", "mode", "-a", "do-not-disturb"]
        case .swaync: return ["swaync-client", "--dnd-on"]
        }
    }

    /// What a client of the notification interface can learn of Do Not Disturb, as found out
    /// (the results table says it).
    var doNotDisturbTold: String {
        switch self {
        case .dunst: return "nothing on the standard interface (`dunstctl is-paused`, its own interface, says it)"
        case .notificationDaemon: return "has no Do Not Disturb"
        case .xfce4Notifyd: return "nothing (an xfconf property, `/do-not-disturb`)"
        case .mate: return "nothing (a GSettings key, `org.mate.NotificationDaemon do-not-disturb`)"
        case .lxqt: return "nothing (`doNotDisturb` in its configuration file)"
        case .plasma: return "the `Inhibited` property of org.freedesktop.Notifications (capability `inhibitions`)"
        case .gnomeWayland, .gnomeX11: return "nothing (a GSettings key, `show-banners`)"
        case .mako: return "nothing (`makoctl mode`)"
        case .swaync: return "nothing on the standard interface (`swaync-client --get-dnd`)"
        }
    }
}
