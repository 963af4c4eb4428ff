import CommandLineInterface
import LinuxGateway

/// A scheduled run (`deliver`, `daemon`) whose program or places no longer pass the trust rule
/// (`ReminderService.untrusted(program:)`), or whose places are another user's (`ownership`,
/// from `RunOwnership`), does nothing: it says why, records it where that is safe, and exits 1.
/// Checked before anything else is read.
extension Commands {
    static func refusedRun(_ parsed: ParsedCommand, context: NotifContext, output: Output, ownership: String? = nil) -> ExitCode? {
        let daemon = parsed.action == .daemon && !parsed.flag("--install-autostart") && !parsed.flag("--remove-autostart")
        guard parsed.action == .deliver || daemon,
              let why = ownership.map({ "this run did nothing: " + $0 }) ?? ReminderService(context: context).untrustedRun() else { return nil }
        ReminderService(context: context).recordRefusal(daemon ? "daemon" : parsed.arguments[0],
                                                        kind: parsed.flag("--catch-up") ? .catchUp : .scheduled, why)
        output.error(why)
        return .failure
    }
}
