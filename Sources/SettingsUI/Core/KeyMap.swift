/// Where a key press lands: what is showing decides what a key means.
public enum KeyContext: Hashable, Sendable, CaseIterable {
    case page, dialog, list, screen, wizard

    public var title: String {
        switch self {
        case .page: return "Notifications page"
        case .dialog: return "Permission prompt"
        case .list: return "Sound list"
        case .screen: return "Help and History"
        case .wizard: return "Onboarding"
        }
    }
}

/// What a key asks for.
public enum Command: Hashable, Sendable {
    case previous, next, activate, turnOff, turnOn
    case permission, test, history, retry, help, quit, close
    case allow, deny
}

/// One row of the key table: the keys, what they do where, and how help and the key bar say it.
public struct KeyBinding: Sendable {
    public let keys: [Key]
    public let command: Command
    public let contexts: Set<KeyContext>
    /// For the help overlay (`Space, Enter`).
    public let keyNames: String
    public let help: String
    /// For the bottom bar, Unicode and ASCII (`↑↓ move`, `Up/Down move`); nil keeps it off the bar.
    public let bar: (unicode: String, ascii: String)?
}

/// The one key table: `command(for:in:)` drives `update`, and the same rows make the help
/// overlay and the key bar, so they can never disagree.
public enum KeyMap {
    public static let bindings: [KeyBinding] = [
        KeyBinding(keys: [.up, .char("k"), .backTab], command: .previous, contexts: [.page, .list, .screen],
                   keyNames: "Up, k, Shift-Tab", help: "previous row (scroll up)", bar: ("↑↓ move", "Up/Down move")),
        KeyBinding(keys: [.down, .char("j"), .tab], command: .next, contexts: [.page, .list, .screen],
                   keyNames: "Down, j, Tab", help: "next row (scroll down)", bar: nil),
        KeyBinding(keys: [.char(" "), .enter], command: .activate, contexts: [.page],
                   keyNames: "Space, Enter", help: "toggle the switch; on Sound, open the list", bar: ("Space toggle", "Space toggle")),
        KeyBinding(keys: [.left, .char("h")], command: .turnOff, contexts: [.page],
                   keyNames: "Left, h", help: "turn off (Sound: previous choice)", bar: ("←→ off/on", "Left/Right off/on")),
        KeyBinding(keys: [.right, .char("l")], command: .turnOn, contexts: [.page],
                   keyNames: "Right, l", help: "turn on (Sound: next choice)", bar: nil),
        KeyBinding(keys: [.char("p")], command: .permission, contexts: [.page],
                   keyNames: "p", help: "notification permission: Allow or Don't allow", bar: ("p permission", "p permission")),
        KeyBinding(keys: [.char("t")], command: .test, contexts: [.page],
                   keyNames: "t", help: "send a test notification now", bar: ("t test", "t test")),
        KeyBinding(keys: [.char("H")], command: .history, contexts: [.page],
                   keyNames: "H", help: "delivery history", bar: ("H history", "H history")),
        KeyBinding(keys: [.char("r")], command: .retry, contexts: [.page],
                   keyNames: "r", help: "retry scheduling after an error", bar: ("r retry", "r retry")),
        KeyBinding(keys: [.char("?")], command: .help, contexts: [.page],
                   keyNames: "?", help: "this help", bar: ("? help", "? help")),
        KeyBinding(keys: [.char("q"), .escape], command: .quit, contexts: [.page, .wizard],
                   keyNames: "q, Esc", help: "quit", bar: ("q quit", "q quit")),
        KeyBinding(keys: [.left, .char("h"), .backTab], command: .previous, contexts: [.dialog, .wizard],
                   keyNames: "Left, h, Shift-Tab", help: "previous button", bar: ("←→ choose", "Left/Right choose")),
        KeyBinding(keys: [.right, .char("l"), .tab], command: .next, contexts: [.dialog, .wizard],
                   keyNames: "Right, l, Tab", help: "next button", bar: nil),
        KeyBinding(keys: [.enter, .char(" ")], command: .activate, contexts: [.dialog, .list, .wizard],
                   keyNames: "Enter, Space", help: "press the highlighted button or choice", bar: ("Enter select", "Enter select")),
        KeyBinding(keys: [.char("a")], command: .allow, contexts: [.dialog],
                   keyNames: "a", help: "Allow", bar: ("a allow", "a allow")),
        KeyBinding(keys: [.char("d")], command: .deny, contexts: [.dialog],
                   keyNames: "d", help: "Don't allow", bar: ("d don't allow", "d don't allow")),
        KeyBinding(keys: [.escape], command: .close, contexts: [.dialog],
                   keyNames: "Esc", help: "close without deciding", bar: ("Esc close", "Esc close")),
        KeyBinding(keys: [.escape, .char("q")], command: .close, contexts: [.list],
                   keyNames: "Esc, q", help: "close the list", bar: ("Esc back", "Esc back")),
        KeyBinding(keys: [.escape, .char("q"), .char("?"), .char("H")], command: .close, contexts: [.screen],
                   keyNames: "Esc, q, ?, H", help: "back to the page", bar: ("Esc back", "Esc back")),
        KeyBinding(keys: [.ctrl("c")], command: .quit, contexts: Set(KeyContext.allCases),
                   keyNames: "Ctrl-C", help: "quit at once", bar: nil),
    ]

    public static func command(for key: Key, in context: KeyContext) -> Command? {
        bindings.first { $0.contexts.contains(context) && $0.keys.contains(key) }?.command
    }

    /// Which bar entries survive when the bar is too narrow (lower first); quit and help always do.
    static func barPriority(_ command: Command) -> Int {
        switch command {
        case .quit, .close: return 0
        case .help: return 1
        case .retry: return 2
        case .previous, .activate, .allow, .deny: return 3
        case .permission: return 4
        case .test: return 5
        case .history: return 6
        case .next, .turnOff, .turnOn: return 7
        }
    }

    /// The bottom bar for `context`: the most important entries that fit in `width`, in table order.
    public static func bar(for context: KeyContext, width: Int, unicode: Bool, showRetry: Bool) -> String {
        let entries = bindings.enumerated().compactMap { index, binding -> (index: Int, priority: Int, text: String)? in
            guard binding.contexts.contains(context), let bar = binding.bar else { return nil }
            if binding.command == .retry && !showRetry { return nil }
            return (index, barPriority(binding.command), unicode ? bar.unicode : bar.ascii)
        }
        var chosen: [(index: Int, priority: Int, text: String)] = []
        var used = -2
        for entry in entries.sorted(by: { ($0.priority, $0.index) < ($1.priority, $1.index) }) {
            let w = TextWidth.of(entry.text) + 2
            if used + w > width { continue }
            chosen.append(entry)
            used += w
        }
        return chosen.sorted { $0.index < $1.index }.map(\.text).joined(separator: "  ")
    }

    /// The help overlay's lines: every binding, grouped by where it applies.
    public static func helpLines() -> [String] {
        var lines: [String] = []
        for context in KeyContext.allCases {
            // Ctrl-C works everywhere; list it once, with the page.
            let rows = bindings.filter { $0.contexts.contains(context) && ($0.keys != [.ctrl("c")] || context == .page) }
            guard !rows.isEmpty else { continue }
            if !lines.isEmpty { lines.append("") }
            lines.append(context.title)
            for row in rows {
                lines.append("  " + row.keyNames.padding(to: 20) + row.help)
            }
        }
        lines.append("")
        lines.append("A mouse click on a row or button acts like Space or Enter on it.")
        return lines
    }
}
