/// A whole program's command line: global options, commands, and the man page's other
/// sections. `NotifCommandLine.declaration` is notif's.
public struct CommandLineDeclaration: Sendable {
    public let program: String
    public let version: String
    /// The man page's date ("November 2026"): written here, so the generated page does not
    /// change with the day it is made.
    public let date: String
    /// One line: the man page's NAME and the first line of `--help`.
    public let summary: String
    /// What the program does with no command.
    public let withoutCommand: String
    /// Options that may stand anywhere before `--`, with every command.
    public let globalOptions: [OptionDeclaration]
    public let commands: [CommandDeclaration]
    /// The man page's DESCRIPTION.
    public let description: String
    /// Paths and what they hold (`--help`'s "Files:" shows the summary of those under an XDG
    /// directory), with more for the man page's FILES.
    public let files: [(path: String, summary: String, more: String)]
    /// Environment variables that are not an option's fallback, for the man page.
    public let environment: [(name: String, summary: String)]
    /// More man page sections, after FILES: (title, text).
    public let manualSections: [(title: String, text: String)]
    public let exitStatus: String
    public let seeAlso: [String]

    public init(program: String, version: String, date: String, summary: String, withoutCommand: String,
                globalOptions: [OptionDeclaration], commands: [CommandDeclaration], description: String,
                files: [(path: String, summary: String, more: String)], environment: [(name: String, summary: String)],
                manualSections: [(title: String, text: String)], exitStatus: String, seeAlso: [String]) {
        self.program = program
        self.version = version
        self.date = date
        self.summary = summary
        self.withoutCommand = withoutCommand
        self.globalOptions = globalOptions
        self.commands = commands
        self.description = description
        self.files = files
        self.environment = environment
        self.manualSections = manualSections
        self.exitStatus = exitStatus
        self.seeAlso = seeAlso
    }

    /// Every command, hidden ones included (for parsing).
    public func command(_ name: String) -> CommandDeclaration? { commands.first { $0.name == name } }

    /// The commands help, the man page and completion show.
    public var visibleCommands: [CommandDeclaration] { commands.filter { !$0.hidden } }

    /// `notif history [-n COUNT] [--json]`.
    public func usage(_ command: CommandDeclaration) -> String {
        ([program, command.name] + (command.usageTail.isEmpty ? [] : [command.usageTail])).joined(separator: " ")
    }

    /// `notif [--scheduler systemd|cron|embedded] [COMMAND [ARGS]]`.
    public var usage: String {
        let options = globalOptions.filter { $0.value != nil }.map { option in
            "[\(option.long) \(option.value.map { $0.kind.offered.isEmpty ? $0.placeholder : $0.kind.offered.joined(separator: "|") } ?? "")]"
        }
        return ([program] + options + ["[COMMAND [ARGS]]"]).joined(separator: " ")
    }
}
