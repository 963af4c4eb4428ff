import AccountClient
import CommandLineInterface
import LinuxGateway
import SharedLogic
import Storage

/// The command line: parse, dispatch, and turn every outcome into an exit code.
public enum NotifMain {
    /// Runs `notif ARGV` (the arguments after the program name) writing to stdout and stderr,
    /// and returns the process exit code.
    public static func run(_ argv: [String]) -> Int32 { Output.checkWrites(run(argv, output: Output(), sayWaits: !isQuietDelivery(argv))) }

    /// - Parameter sayWaits: a command (not the page) says on stderr when it waits for another notif's lock.
    static func run(_ argv: [String], output given: Output, sayWaits: Bool = false) -> Int32 {
        // What a scheduler runs writes nothing anywhere, refusals and usage errors included
        // (cron mails output); the exit status still says how it went.
        let output = isQuietDelivery(argv) ? Output.silent : given
        let declaration = NotifCommandLine.declaration
        do {
            return try dispatch(try declaration.invocation(argv, environment: Posix.environment), declaration, output: output,
                                sayWaits: sayWaits).rawValue
        } catch {
            output.error(error.message)
            if let command = error.command, let spec = declaration.command(command), !spec.hidden {
                output.err("\(declaration.usageLines(spec))\nRun `notif help \(command)` for details.\n")
            } else {
                output.err("Run `notif --help` for the commands.\n")
            }
            return ExitCode.usage.rawValue
        }
    }

    /// `notif [OPTIONS] deliver … --quiet …`: the first word that is not an option (or the value
    /// of a global option that takes one, `--scheduler`) is `deliver`, and `--quiet` follows it.
    /// Looked at before parsing, so that not even a usage error is written.
    static func isQuietDelivery(_ argv: [String]) -> Bool {
        let valued = Set(NotifCommandLine.declaration.globalOptions.filter { $0.value != nil }.map(\.long))
        var index = 0
        while index < argv.count, argv[index].hasPrefix("-"), argv[index] != "-" {
            if argv[index] == "--" { index += 1; break }
            index += valued.contains(argv[index]) ? 2 : 1
        }
        guard index < argv.count, argv[index] == "deliver" else { return false }
        return argv[(index + 1)...].prefix { $0 != "--" }.contains("--quiet")
    }

    static func dispatch(_ invocation: Invocation, _ declaration: CommandLineDeclaration, output: Output,
                         sayWaits: Bool = false) throws(UsageError) -> ExitCode {
        if invocation.version {
            guard invocation.command == nil else {
                throw UsageError(message: "--version takes no command or arguments", command: nil)
            }
            output.line("notif \(NotifVersion.current)")
            return .success
        }
        let asksHelp = invocation.command.flatMap(declaration.command)?.action == .help
        if asksHelp || invocation.help {
            var topic = invocation.command
            if asksHelp {
                topic = invocation.help ? "help" : try declaration.parse(invocation, environment: Posix.environment).arguments.first
            }
            guard let topic else {
                output.out(declaration.overview)
                return .success
            }
            guard let spec = declaration.command(topic), !spec.hidden else {
                throw declaration.unknownCommand(topic)
            }
            output.out(declaration.help(spec))
            return .success
        }
        var parsed: ParsedCommand?
        if invocation.command != nil { parsed = try declaration.parse(invocation, environment: Posix.environment) }
        if let parsed, parsed.action == .completion {
            output.out(declaration.completionScript(for: parsed.arguments[0]))
            return .success
        }
        if let parsed, parsed.action == .complete {
            for line in declaration.completions(line: parsed.arguments[1]).lines(for: parsed.arguments[0]) { output.line(line) }
            return .success
        }
        let override = invocation.globals["--scheduler"]
        var context = NotifContext.live(forcedScheduler: override.flatMap { SchedulerKind(argument: $0.text) })
        if let override, !override.source.hasPrefix("-") { context.forcedSchedulerSource = override.source }
        // Another user's files are never acted on (sudo -E, a HOME someone else made): before
        // anything is read. A scheduled run records why where that is safe.
        let ownership = RunOwnership.problem(paths: context.paths)
        if let parsed, let refused = Commands.refusedRun(parsed, context: context, output: output, ownership: ownership) { return refused }
        if let ownership {
            output.error(ownership)
            return .failure
        }
        let commands = Commands(context: context, output: output)
        // A TZ that names no zone means UTC (as glibc does): said, never passed off as the person's zone.
        let zoneProblem = context.zoneProblem
        guard let parsed else {
            return PageShell(service: commands.service, account: commands.account, output: output, zoneProblem: zoneProblem).run(.page)
        }
        if parsed.action == .onboarding {
            return PageShell(service: commands.service, account: commands.account, output: output, zoneProblem: zoneProblem).run(.onboardingOnly)
        }
        if let zoneProblem { output.warn(zoneProblem) }
        if sayWaits {
            FileLock.sayWaits { Output.write(2, "notif: waiting for another notif to finish (it holds \($0))\n") }
        }
        return try commands.run(parsed)
    }
}
