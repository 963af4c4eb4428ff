/// `notif completion bash|zsh|fish`: a short script for each shell that asks the program itself
/// what to offer (`notif __complete SHELL LINE`, the line up to the cursor; see
/// `CompletionOffers`). The script never goes stale: an upgraded notif answers for itself.
extension CommandLineDeclaration {
    /// The hidden command the scripts run.
    public static let completeCommand = "__complete"

    /// The script for `shell` (`bash`, `zsh` or `fish`).
    public func completionScript(for shell: String) -> String {
        let function = "_" + program.replacing("-", with: "_")
        let ask = "\(Self.completeCommand) \(shell)"
        switch shell {
        case "zsh":
            return """
            #compdef \(program)
            # zsh completion for \(program): `\(program) completion zsh`; \(program) itself says what to offer.
            \(function)() {
                local -a offers
                offers=(${(f)"$("${words[1]}" \(ask) "${(j: :)words[1,CURRENT]}" 2>/dev/null)"})
                _describe -t values \(program) offers
            }
            if [ "$funcstack[1]" = "\(function)" ]; then
                \(function) "$@"
            else
                compdef \(function) \(program)
            fi

            """
        case "fish":
            return """
            # fish completion for \(program): `\(program) completion fish`; \(program) itself says what to offer.
            complete -c \(program) -f -a '(command -q \(program); and \(program) \(ask) (commandline -cp) 2>/dev/null)'

            """
        default:
            return """
            # bash completion for \(program): `\(program) completion bash`; \(program) itself says what to offer.
            \(function)()
            {
                local IFS=$'\\n'
                COMPREPLY=($("$1" \(ask) "${COMP_LINE:0:COMP_POINT}" 2>/dev/null))
            }
            complete -F \(function) \(program)

            """
        }
    }
}
