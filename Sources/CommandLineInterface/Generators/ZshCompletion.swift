/// `notif completion zsh`: a `#compdef` function for zsh, made from the declaration. It
/// works autoloaded from a directory in `fpath` (as `_notif`) and when sourced.
extension CommandLineDeclaration {
    public var zshCompletion: String {
        let model = CompletionModel(self)
        let function = "_" + program.replacing("-", with: "_")
        let q = CompletionModel.quoted
        var s = """
        #compdef \(program)
        # zsh completion for \(program); made by `\(program) completion zsh` from its command-line declaration.
        \(function)() {
            local cur=${words[CURRENT]} prev=${words[CURRENT-1]}
            local command= word ended= i
            local -a args described

        """
        s += Self.shellWordWalk(model, from: 2, before: "CURRENT")
        s += """
            if [[ $cur == --*=* ]]; then
                prev=${cur%%=*}
                compset -P '*='
                cur=${cur#*=}
            fi
            case "$command:$prev" in

        """
        for entry in model.valued {
            let reply = entry.words.isEmpty ? "_message \(CompletionModel.quotedText(entry.option.value?.placeholder.lowercased() ?? "a value")); return"
                                             : "compadd -- \(entry.words.joined(separator: " ")); return"
            s += "        \(Self.bashOptionPattern(command: entry.command, option: entry.option))) \(reply) ;;\n"
        }
        s += """
            esac
            if [[ -z $ended && $cur == -* ]]; then
                case $command in

        """
        for (options, paths) in model.byOptions {
            s += "            \(paths.map(Self.bashCase).joined(separator: "|"))) compadd -- \(options.joined(separator: " ")) ;;\n"
        }
        s += """
                esac
                return
            fi
            case $command in

        """
        for entry in model.entries where entry.bare > 0 || !entry.own.isEmpty {
            s += "        \(Self.bashCase(entry.path)))\n"
            s += "            case ${#args} in\n"
            for (index, position) in entry.positions.enumerated() {
                switch position {
                case .words(let words):
                    if words.allSatisfy({ $0.summary.isEmpty }) {
                        s += "                \(index)) compadd -- \(words.map(\.word).joined(separator: " ")) ;;\n"
                    } else {
                        let items = words.map { CompletionModel.quotedText($0.word + ":" + $0.summary) }.joined(separator: " ")
                        s += "                \(index)) described=(\(items)); _describe -t values \(q([entryNoun(entry.path, index)])) described ;;\n"
                    }
                case .following(let pairs):
                    s += "                \(index))\n"
                    s += "                    case ${args[\(index)]} in\n"
                    for (words, afters) in Self.grouped(pairs) {
                        s += "                        \(afters.joined(separator: "|"))) compadd -- \(words.joined(separator: " ")) ;;\n"
                    }
                    s += "                    esac ;;\n"
                case .nothing:
                    continue
                }
            }
            if !entry.own.isEmpty {
                s += "                *) [[ -z $ended ]] && compadd -- \(CompletionModel.spellings(entry.own).joined(separator: " ")) ;;\n"
            }
            s += "            esac ;;\n"
        }
        s += """
            esac
        }
        if [ "$funcstack[1]" = "\(function)" ]; then
            \(function) "$@"
        else
            compdef \(function) \(program)
        fi

        """
        return s
    }

    /// The heading zsh shows over a list: `command`, `setting`.
    func entryNoun(_ path: String, _ index: Int) -> String {
        guard !path.isEmpty else { return "command" }
        let parts = path.split(separator: " ").map(String.init)
        guard let top = command(parts[0]) else { return "value" }
        if parts.count == 1 && !top.subcommands.isEmpty { return "action" }
        let declared = parts.count > 1 ? top.subcommand(parts[1]) : top
        guard let declared, index < declared.arguments.count else { return "value" }
        return declared.arguments[index].noun.replacing(" ", with: "-")
    }
}
