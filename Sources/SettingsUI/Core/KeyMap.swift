/// Where a key press lands: what is showing decides what a key means.
public enum KeyContext: Hashable, Sendable, CaseIterable {
    case page, dialog, confirm, list, screen, wizard, problem

    public var title: String {
        switch self {
        case .page: return "Notifications page"
        case .problem: return "When settings.json cannot be read"
        case .dialog: return "Permission prompt"
        case .confirm: return "Questions (quitting with changes not saved, resetting the settings)"
        case .list: return "Sound and scheduler lists, a history entry"
        case .screen: return "Help and History"
        case .wizard: return "Onboarding"
        }
    }

    /// Every context: for the keys that work wherever the page is (Ctrl-C, Ctrl-Z).
    public static let everywhere = Set(allCases)
}

/// What a key asks for.
public enum Command: Hashable, Sendable {
    case previous, next, activate, turnOff, turnOn
    case permission, scheduler, test, history, retry, help, quit, close
    case allow, deny
    /// Ctrl-C: quit from anywhere without asking (what is not saved is said on the way out).
    case quitNow
    /// Ctrl-Z: give the terminal back and stop until `fg`.
    case suspend
    /// settings.json cannot be read: edit it, read it again, or reset it to the defaults.
    case edit, reload, resetSettings
}

/// How the key bar names a binding, with and without Unicode arrows.
public struct BarLabel: Sendable {
    public let unicode: String
    public let ascii: String
    public init(_ unicode: String, _ ascii: String) {
        self.unicode = unicode
        self.ascii = ascii
    }
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
    public let bar: BarLabel?
}

/// The one key table: `command(for:in:)` drives `update`, and the same rows make the help
/// overlay and the key bar, so they can never disagree.
public enum KeyMap {
    public static let bindings: [KeyBinding] = [
        KeyBinding(keys: [.up, .char("k"), .backTab], command: .previous, contexts: [.page, .list, .screen],
                   keyNames: "Up, k, Shift-Tab", help: "previous row (scroll up)", bar: BarLabel("↑↓ move", "Up/Down move")),
        KeyBinding(keys: [.down, .char("j"), .tab], command: .next, contexts: [.page, .list, .screen],
                   keyNames: "Down, j, Tab", help: "next row (scroll down)", bar: nil),
        KeyBinding(keys: [.char(" "), .enter], command: .activate, contexts: [.page],
                   keyNames: "Space, Enter", help: "toggle the switch; on Sound, open the list", bar: BarLabel("Space toggle", "Space toggle")),
        KeyBinding(keys: [.left, .char("h")], command: .turnOff, contexts: [.page],
                   keyNames: "Left, h", help: "turn off (Sound: previous choice)", bar: BarLabel("←→ off/on", "Left/Right off/on")),
        KeyBinding(keys: [.right, .char("l")], command: .turnOn, contexts: [.page],
                   keyNames: "Right, l", help: "turn on (Sound: next choice)", bar: nil),
        KeyBinding(keys: [.char("p")], command: .permission, contexts: [.page],
                   keyNames: "p", help: "notification permission: Allow or Don't allow", bar: BarLabel("p permission", "p permission")),
        KeyBinding(keys: [.char("s")], command: .scheduler, contexts: [.page],
                   keyNames: "s", help: "choose the scheduler (the Scheduler: line)", bar: BarLabel("s scheduler", "s scheduler")),
        KeyBinding(keys: [.char("t")], command: .test, contexts: [.page],
                   keyNames: "t", help: "send a test notification now", bar: BarLabel("t test", "t test")),
        KeyBinding(keys: [.char("H")], command: .history, contexts: [.page],
                   keyNames: "H", help: "delivery history", bar: BarLabel("H history", "H history")),
        KeyBinding(keys: [.char("r")], command: .retry, contexts: [.page],
                   keyNames: "r", help: "retry scheduling after an error", bar: BarLabel("r retry", "r retry")),
        KeyBinding(keys: [.char("e")], command: .edit, contexts: [.problem],
                   keyNames: "e", help: "edit settings.json, checked before it is saved", bar: BarLabel("e edit", "e edit")),
        KeyBinding(keys: [.char("r")], command: .reload, contexts: [.problem],
                   keyNames: "r", help: "read settings.json again", bar: BarLabel("r reread", "r reread")),
        KeyBinding(keys: [.char("d")], command: .resetSettings, contexts: [.problem],
                   keyNames: "d", help: "reset to the defaults, keeping the file as a copy", bar: BarLabel("d reset", "d reset")),
        KeyBinding(keys: [.char("?")], command: .help, contexts: [.page, .problem],
                   keyNames: "?", help: "this help", bar: BarLabel("? help", "? help")),
        KeyBinding(keys: [.char("q"), .escape], command: .quit, contexts: [.page, .wizard, .problem],
                   keyNames: "q, Esc", help: "quit", bar: BarLabel("q quit", "q quit")),
        KeyBinding(keys: [.left, .char("h"), .backTab], command: .previous, contexts: [.dialog, .confirm, .wizard],
                   keyNames: "Left, h, Shift-Tab", help: "previous button", bar: BarLabel("←→ choose", "Left/Right choose")),
        KeyBinding(keys: [.right, .char("l"), .tab], command: .next, contexts: [.dialog, .confirm, .wizard],
                   keyNames: "Right, l, Tab", help: "next button", bar: nil),
        KeyBinding(keys: [.enter, .char(" ")], command: .activate, contexts: [.dialog, .confirm, .list, .wizard],
                   keyNames: "Enter, Space", help: "press the highlighted button or choice", bar: BarLabel("Enter select", "Enter select")),
        KeyBinding(keys: [.char("a")], command: .allow, contexts: [.dialog],
                   keyNames: "a", help: "Allow", bar: BarLabel("a allow", "a allow")),
        KeyBinding(keys: [.char("d")], command: .deny, contexts: [.dialog],
                   keyNames: "d", help: "Don't allow", bar: BarLabel("d don't allow", "d don't allow")),
        KeyBinding(keys: [.escape, .char("q")], command: .close, contexts: [.dialog],
                   keyNames: "Esc, q", help: "close without deciding", bar: BarLabel("Esc close", "Esc close")),
        KeyBinding(keys: [.escape, .char("q")], command: .close, contexts: [.confirm],
                   keyNames: "Esc, q", help: "back, nothing changed", bar: BarLabel("Esc back", "Esc back")),
        KeyBinding(keys: [.escape, .char("q")], command: .close, contexts: [.list],
                   keyNames: "Esc, q", help: "close the list or the entry", bar: BarLabel("Esc back", "Esc back")),
        KeyBinding(keys: [.enter], command: .activate, contexts: [.screen],
                   keyNames: "Enter", help: "History: show the highlighted entry whole", bar: BarLabel("Enter open", "Enter open")),
        KeyBinding(keys: [.escape, .char("q"), .char("?"), .char("H")], command: .close, contexts: [.screen],
                   keyNames: "Esc, q, ?, H", help: "back to the page", bar: BarLabel("Esc back", "Esc back")),
        KeyBinding(keys: [.ctrl("c")], command: .quitNow, contexts: KeyContext.everywhere,
                   keyNames: "Ctrl-C", help: "quit at once, from anywhere (says what was not saved)", bar: nil),
        KeyBinding(keys: [.ctrl("z")], command: .suspend, contexts: KeyContext.everywhere,
                   keyNames: "Ctrl-Z", help: "suspend: back to the shell; fg returns", bar: nil),
    ]

    public static func command(for key: Key, in context: KeyContext) -> Command? {
        bindings.first { $0.contexts.contains(context) && $0.keys.contains(key) }?.command
    }

    /// Which bar entries survive when the bar is too narrow (lower first); quit and help always do.
    static func barPriority(_ command: Command) -> Int {
        switch command {
        case .quit, .close, .quitNow, .suspend: return 0
        case .help: return 1
        case .retry, .edit, .reload, .resetSettings: return 2
        case .previous, .activate, .allow, .deny: return 3
        case .permission: return 4
        case .test: return 5
        case .history: return 6
        case .next, .turnOff, .turnOn, .scheduler: return 7
        }
    }

    /// The bottom bar for `context`: the most important entries that fit in `width`, in table order.
    /// `omitting`: commands that do nothing here now (`r` with nothing to retry, Enter on Help).
    public static func bar(for context: KeyContext, width: Int, unicode: Bool, omitting: Set<Command> = []) -> String {
        var texts: [String?] = Array(repeating: nil, count: bindings.count)
        var priorities: [Int] = Array(repeating: Int.max, count: bindings.count)
        for index in bindings.indices {
            let binding = bindings[index]
            guard binding.contexts.contains(context), let bar = binding.bar else { continue }
            if omitting.contains(binding.command) { continue }
            texts[index] = unicode ? bar.unicode : bar.ascii
            priorities[index] = barPriority(binding.command)
        }
        var chosen = Array(repeating: false, count: bindings.count)
        var used = -2
        for priority in 0...7 {
            for index in bindings.indices where priorities[index] == priority {
                let w = TextWidth.of(texts[index]!) + 2
                if used + w > width { continue }
                chosen[index] = true
                used += w
            }
        }
        var text = ""
        for index in bindings.indices where chosen[index] {
            if !text.isEmpty { text += "  " }
            text += texts[index]!
        }
        return text
    }

    /// The help overlay's lines: every binding, grouped by where it applies.
    public static func helpLines() -> [HelpLine] {
        var lines: [HelpLine] = []
        for context in KeyContext.allCases {
            // Keys that work everywhere (Ctrl-C, Ctrl-Z) are listed once, with the page.
            let rows = bindings.filter { $0.contexts.contains(context) && ($0.contexts != KeyContext.everywhere || context == .page) }
            guard !rows.isEmpty else { continue }
            if !lines.isEmpty { lines.append(.text("")) }
            lines.append(.heading(context.title))
            for row in rows {
                lines.append(.binding(keys: row.keyNames, help: row.help))
            }
        }
        lines.append(.text(""))
        lines.append(.text("A mouse click on a row or button acts like Space or Enter on it. Alt with a key does nothing: only Esc alone closes or quits."))
        return lines
    }
}

/// One entry of the help overlay, laid out (and wrapped) by the Help screen.
public enum HelpLine: Equatable, Sendable {
    case heading(String)
    /// `Space, Enter` and what they do.
    case binding(keys: String, help: String)
    case text(String)
}
