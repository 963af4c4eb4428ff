import LinuxGateway
import SharedLogic

/// The parsed command line: global options, the command and its own arguments.
struct Arguments: Equatable {
    var scheduler: SchedulerKind?
    var help = false
    var version = false
    var command: String?
    var rest: [String] = []

    /// Global options (`--scheduler`, `--help`, `--version`) may stand anywhere before `--`.
    static func parse(_ argv: [String], environment: (String) -> String?) throws(UsageError) -> Arguments {
        var result = Arguments()
        var index = 0
        var optionsEnded = false
        while index < argv.count {
            let arg = argv[index]
            index += 1
            if optionsEnded {
                result.append(arg)
                continue
            }
            switch arg {
            case "--":
                optionsEnded = true
            case "-h", "--help":
                result.help = true
            case "-V", "--version":
                result.version = true
            case "--scheduler":
                guard index < argv.count else { throw UsageError(message: "--scheduler needs a value: systemd, cron or embedded", command: nil) }
                result.scheduler = try scheduler(argv[index], from: "--scheduler")
                index += 1
            default:
                if arg.hasPrefix("--scheduler=") {
                    result.scheduler = try scheduler(String(arg.dropFirst("--scheduler=".count)), from: "--scheduler")
                } else if result.command == nil && arg.hasPrefix("-") && arg != "-" {
                    throw UsageError(message: "unknown option '\(arg)'", command: nil)
                } else {
                    result.append(arg)
                }
            }
        }
        if result.scheduler == nil, let value = environment("NOTIF_SCHEDULER"), !value.isEmpty {
            result.scheduler = try scheduler(value, from: "NOTIF_SCHEDULER")
        }
        return result
    }

    private mutating func append(_ arg: String) {
        if command == nil { command = arg } else { rest.append(arg) }
    }

    private static func scheduler(_ value: String, from source: String) throws(UsageError) -> SchedulerKind {
        guard let kind = SchedulerKind(argument: value) else {
            if value == "auto" {
                throw UsageError(message: "\(source) names a scheduler for one run: systemd, cron or embedded; `notif set scheduler auto` lets notif pick", command: nil)
            }
            throw UsageError(message: "\(source) '\(value)' is not a scheduler: use systemd, cron or embedded", command: nil)
        }
        return kind
    }
}
