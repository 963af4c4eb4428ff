import CommandLineInterface
import LinuxGateway

/// A scheduled run (`deliver`, `daemon`) whose program or places no longer pass the trust rule
/// (`ReminderService.untrusted(program:)`) does nothing: it says why, records it where that is
/// safe, and exits 1. Checked before anything else is read.
extension Commands {
    static func refusedRun(_ parsed: ParsedCommand, context: NotifContext, output: Output) -> ExitCode? {
        let daemon = parsed.action == .daemon && !parsed.flag("--install-autostart") && !parsed.flag("--remove-autostart")
        guard parsed.action == .deliver || daemon, let why = ReminderService(context: context).untrustedRun() else { return nil }
        ReminderService(context: context).recordRefusal(daemon ? "daemon" : parsed.arguments[0],
                                                        kind: parsed.flag("--catch-up") ? .catchUp : .scheduled, why)
        output.error(why)
        return .failure
    }
}
