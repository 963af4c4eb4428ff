import AccountClient
import CommandLineInterface
import Glibc
import LinuxGateway
import SharedLogic
import Storage

/// `notif account login|logout|status`.
struct AccountCommands {
    let account: AccountService
    let output: Output

    /// `account login --server URL` (the declaration requires it).
    func login(server: String) throws(UsageError) -> ExitCode {
        do {
            _ = try ServerURL(parsing: server)
        } catch {
            throw UsageError(message: error.message, command: "account")
        }
        guard let token = readToken(), !token.isEmpty else {
            throw UsageError(message: "no auth token: pipe it on stdin or set NOTIF_AUTH_TOKEN (it is never taken from the command line)", command: "account")
        }
        // Settings that cannot be read stop the login before anything is saved or sent.
        guard savedPreferences() != nil else { return .failure }
        let outcome: AccountService.LoginOutcome
        do {
            outcome = try account.login(server: server, authToken: token)
        } catch {
            output.error(error.message)
            return .failure
        }
        output.line("Logged in to \(outcome.server): this is now an Account project.")
        if case .pending(let reason) = outcome.registration {
            output.warn("the server could not register this device yet: \(reason); `notif apply` and notif's start retry it")
        }
        let cancelled = outcome.apply.report.outcomes.filter { $0.result == .cancelled }.map(\.id)
        let failures = presenter.applyLines(outcome.apply, onlyFailures: true)
        if failures.isEmpty {
            output.line(cancelled.isEmpty ? "No Guest reminders were scheduled." : "Guest reminders cancelled: \(cancelled.joined(separator: ", ")).")
        }
        for line in failures { output.line(line) }
        let code = report(outcome.registration)
        guard outcome.apply.succeeded else {
            output.error("logged in, but a Guest reminder may still fire: its entry could not be removed (see above); `notif apply` retries")
            return .failure
        }
        return code
    }

    var presenter: Presenter { Presenter(service: account.reminders) }

    /// The saved settings, or nil after saying why they cannot be read.
    private func savedPreferences() -> NotificationPreferences? {
        do {
            return try account.reminders.context.store.load().preferences
        } catch {
            Commands(context: account.reminders.context, output: output).settingsFailure(error)
            return nil
        }
    }

    func logout() -> ExitCode {
        guard let preferences = savedPreferences() else { return .failure }
        if preferences.mode == .guest && account.store.authToken() == nil {
            output.line("Not logged in: this is already a Guest project.")
            return .success
        }
        do {
            let outcome = try account.logout()
            output.line("Logged out: this is a Guest project again.")
            if let problem = outcome.unregisterProblem { output.warn("the server was not told to forget this device: \(problem)") }
            if let apply = outcome.apply {
                for line in presenter.applyLines(apply) {
                    output.line(line)
                }
                guard apply.succeeded else {
                    output.error("logged out, but the scheduler does not match the Guest settings yet (see above); `notif apply` retries")
                    return .failure
                }
                return .success
            }
            output.error("Guest reminders were not re-applied: \(outcome.applyProblem ?? "unknown problem"); `notif apply` retries")
            return .failure
        } catch {
            output.error(error.message)
            return .failure
        }
    }

    func status() -> ExitCode {
        guard let preferences = savedPreferences() else { return .failure }
        guard preferences.mode == .account else {
            output.line("Guest project: not logged in to a server.")
            return .success
        }
        output.line("Account project, server \(preferences.accountServer ?? "not set").")
        output.line(account.store.authToken() == nil ? "Auth token: missing (run `notif account login`)." : "Auth token: saved.")
        output.line("Device token: " + describe(account.registrationState()))
        return .success
    }

    func describe(_ state: RegistrationState) -> String {
        switch state {
        case .registered(let at): return "registered\(at.isEmpty ? "" : " (\(at))")."
        case .pending(let reason): return "pending: \(reason). notif retries on the next `notif apply` or start."
        case .none: return "not registered (not logged in)."
        }
    }

    private func report(_ state: RegistrationState) -> ExitCode {
        output.line("Device token: " + describe(state))
        return .success
    }

    /// NOTIF_AUTH_TOKEN, else stdin: piped, or typed with echo off.
    func readToken() -> String? {
        if let token = Posix.environment(SpawnProcessRunner.authTokenVariable), !token.isEmpty { return token }
        if isatty(0) != 0 {
            output.err("Auth token (not shown): ")
            var settings = termios()
            tcgetattr(0, &settings)
            var quiet = settings
            quiet.c_lflag &= ~tcflag_t(ECHO)
            tcsetattr(0, TCSANOW, &quiet)
            defer {
                tcsetattr(0, TCSANOW, &settings)
                output.err("\n")
            }
            return readLine(strippingNewline: true)
        }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while bytes.count < 65536 {
            let n = Glibc.read(0, &buffer, buffer.count)
            if n <= 0 { break }
            bytes.append(contentsOf: buffer[0..<n])
        }
        // The first line, ended by a line feed only: a U+0085 or U+2028 inside stays part of
        // the token (and is refused there), never cuts it short unseen.
        guard let line = bytes.split(separator: UInt8(ascii: "\n")).first else { return nil }
        return String(decoding: line.last == UInt8(ascii: "\r") ? line.dropLast() : line, as: UTF8.self)
    }
}
