import AccountClient
import LinuxGateway
import Storage

/// The command line: parse, dispatch, and turn every outcome into an exit code.
enum NotifMain {
    static func run(_ argv: [String], output given: Output = Output()) -> Int32 {
        // What a scheduler runs writes nothing anywhere, refusals and usage errors included
        // (cron mails output); the exit status still says how it went.
        let output = isQuietDelivery(argv) ? Output.silent : given
        do {
            return try dispatch(try Arguments.parse(argv, environment: Posix.environment), output: output).rawValue
        } catch {
            output.error(error.message)
            if let command = error.command, let spec = CommandSpec.named(command) {
                output.err("Usage: \(spec.usage)\nRun `notif help \(command)` for details.\n")
            } else {
                output.err("Run `notif --help` for the commands.\n")
            }
            return ExitCode.usage.rawValue
        }
    }

    /// `notif [OPTIONS] deliver … --quiet …`: the first word that is not an option (or the value
    /// of `--scheduler`) is `deliver`, and `--quiet` follows it.
    static func isQuietDelivery(_ argv: [String]) -> Bool {
        var index = 0
        while index < argv.count, argv[index].hasPrefix("-"), argv[index] != "-" {
            if argv[index] == "--" { index += 1; break }
            index += argv[index] == "--scheduler" ? 2 : 1
        }
        guard index < argv.count, argv[index] == "deliver" else { return false }
        return argv[(index + 1)...].prefix { $0 != "--" }.contains("--quiet")
    }

    static func dispatch(_ arguments: Arguments, output: Output) throws(UsageError) -> ExitCode {
        if arguments.version {
            guard arguments.command == nil else {
                throw UsageError(message: "--version takes no command or arguments", command: nil)
            }
            output.line("notif \(NotifVersion.current)")
            return .success
        }
        var topic: String?
        if arguments.command == "help" {
            topic = arguments.help ? "help" : arguments.rest.first
            if arguments.rest.count > 1 { throw UsageError(message: "help takes at most one COMMAND", command: "help") }
        } else if arguments.help {
            topic = arguments.command
        }
        if arguments.command == "help" || arguments.help {
            guard let topic else {
                output.out(CommandSpec.overview)
                return .success
            }
            guard let spec = CommandSpec.named(topic) else {
                throw UsageError(message: "unknown command '\(topic)'", command: nil)
            }
            output.out(spec.helpText)
            return .success
        }
        let context = NotifContext.live(forcedScheduler: arguments.scheduler)
        // Another user's files are never acted on (sudo -E, a HOME someone else made): before anything is read.
        if let problem = RunOwnership.problem(paths: context.paths) {
            output.error(problem)
            return .failure
        }
        let commands = Commands(context: context, output: output)
        // A TZ that names no zone means UTC (as glibc does): said, never passed off as the person's zone.
        let zoneProblem = SystemTimeZone.problem(environment: context.lookup("TZ"))
        switch arguments.command {
        case nil:
            return PageShell(service: commands.service, account: commands.account, output: output, zoneProblem: zoneProblem).run(.page)
        case "onboarding":
            guard arguments.rest.isEmpty else { throw UsageError(message: "onboarding takes no arguments", command: "onboarding") }
            return PageShell(service: commands.service, account: commands.account, output: output, zoneProblem: zoneProblem).run(.onboardingOnly)
        case let command?:
            if let zoneProblem { output.warn(zoneProblem) }
            return try commands.run(command, arguments.rest)
        }
    }
}
