/// What the completion scripts need to know, taken from the declaration: for each command
/// path, its options, which of them take a value (and which words that value may be), and
/// the words each argument position offers.
struct CompletionModel {
    struct Entry {
        /// `""` (no command yet), `set`, `account login`.
        let path: String
        /// Offered after `-`; global options included.
        let options: [OptionDeclaration]
        /// The command's own options: offered also where no argument is wanted (`reset `).
        let own: [OptionDeclaration]
        /// For each argument position, the words offered; `following` marks a position
        /// whose words depend on the word before it (`set SETTING VALUE`).
        let positions: [Position]

        /// Where the arguments end (or the first one with no words to offer): from here on
        /// the command's own options are offered.
        var bare: Int {
            positions.firstIndex { if case .nothing = $0 { return true } else { return false } } ?? positions.count
        }
    }

    enum Position {
        case words([(word: String, summary: String)])
        /// Each earlier word with the words allowed after it.
        case following([(after: String, words: [String])])
        case nothing
    }

    let entries: [Entry]
    /// Commands with sub-commands: (command, its sub-commands).
    let parents: [(command: String, subcommands: [String])]
    /// Every option that takes a value, with the command it belongs to (nil: global) and the words it offers.
    let valued: [(command: String?, option: OptionDeclaration, words: [String])]
    let globals: [OptionDeclaration]

    init(_ declaration: CommandLineDeclaration) {
        let globalOptions = declaration.globalOptions
        globals = globalOptions
        var found: [Entry] = [Entry(path: "", options: globalOptions, own: [], positions: [
            .words(declaration.visibleCommands.map { ($0.name, $0.summary) }),
        ])]
        var withSubcommands: [(String, [String])] = []
        var withValues: [(String?, OptionDeclaration, [String])] = globalOptions.compactMap { option in option.value.map { (nil, option, $0.kind.offered) } }
        func add(_ command: CommandDeclaration, path: String) {
            if !command.subcommands.isEmpty {
                withSubcommands.append((path, command.subcommands.map(\.name)))
                found.append(Entry(path: path, options: globalOptions, own: [], positions: [.words(command.subcommands.map { ($0.name, $0.summary) })]))
                for sub in command.subcommands { add(sub, path: path + " " + sub.name) }
                return
            }
            var positions: [Position] = []
            var previous: [Choice] = []
            for argument in command.arguments {
                switch argument.kind {
                case .choice(let choices):
                    let shown = choices.filter { !$0.hidden && $0.refusal == nil }
                    positions.append(.words(shown.map { ($0.word, $0.summary) }))
                    previous = shown
                case .followingChoice:
                    positions.append(.following(previous.map { ($0.word, $0.next) }))
                    previous = []
                case .commandName:
                    positions.append(.words(declaration.visibleCommands.map { ($0.name, $0.summary) }))
                    previous = []
                default:
                    positions.append(.nothing)
                    previous = []
                }
            }
            found.append(Entry(path: path, options: command.options + globalOptions, own: command.options, positions: positions))
            for option in command.options {
                if let value = option.value { withValues.append((path, option, value.kind.offered)) }
            }
        }
        for command in declaration.visibleCommands { add(command, path: command.name) }
        self.entries = found
        self.parents = withSubcommands
        self.valued = withValues
    }

    /// `--limit`, `-n`: every way to write the options.
    static func spellings(_ options: [OptionDeclaration]) -> [String] {
        CommandLineDeclaration.spellings(options)
    }

    /// Command paths grouped by the option spellings they offer, in declaration order.
    var byOptions: [(options: [String], paths: [String])] {
        var groups: [(options: [String], paths: [String])] = []
        for entry in entries {
            let options = Self.spellings(entry.options)
            if let index = groups.firstIndex(where: { $0.options == options }) {
                groups[index].paths.append(entry.path)
            } else {
                groups.append((options, [entry.path]))
            }
        }
        return groups
    }

    /// Words as one single-quoted shell word list (`'a b c'`); the declaration's words hold no quote.
    static func quoted(_ words: [String]) -> String {
        precondition(words.allSatisfy { !$0.contains("'") && !$0.contains(" ") }, "completion words must not hold quotes or spaces")
        return "'" + words.joined(separator: " ") + "'"
    }

    /// A description in single quotes for a shell.
    static func quotedText(_ text: String) -> String {
        "'" + text.replacing("'", with: "'\\''") + "'"
    }
}
