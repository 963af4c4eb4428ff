/// `notif completion bash`: a completion function for bash, made from the declaration. It
/// uses bash-completion's `_init_completion` when that is loaded (as from
/// share/bash-completion/completions), and plain COMP_WORDS otherwise.
extension CommandLineDeclaration {
    public var bashCompletion: String {
        let model = CompletionModel(self)
        let function = "_" + program.replacing("-", with: "_")
        let q = CompletionModel.quoted
        var s = """
        # bash completion for \(program); made by `\(program) completion bash` from its command-line declaration.
        \(function)()
        {
            local cur prev words cword split=false
            if declare -F _init_completion >/dev/null 2>&1; then
                _init_completion -s || return
            else
                # Without bash-completion: join `--option=value`, which COMP_WORDBREAKS splits at `=`.
                local j
                words=()
                for ((j = 0; j < ${#COMP_WORDS[@]}; j++)); do
                    if ((${#words[@]} > 0)) && [[ ${COMP_WORDS[j]} == = || ${COMP_WORDS[j-1]} == = ]] && ((j > 0)); then
                        words[${#words[@]}-1]+=${COMP_WORDS[j]}
                    else
                        words+=("${COMP_WORDS[j]}")
                    fi
                    ((j == COMP_CWORD)) && cword=$((${#words[@]} - 1))
                done
                cur=${words[cword]}
                prev=${words[cword-1]}
                if [[ $cur == --*=* ]]; then
                    prev=${cur%%=*}
                    cur=${cur#*=}
                    split=true
                fi
            fi
            local command= word ended= i
            local -a args=()

        """
        s += Self.shellWordWalk(model, from: 1, before: "cword")
        s += """
            case "$command:$prev" in

        """
        for entry in model.valued {
            let pattern = Self.bashOptionPattern(command: entry.command, option: entry.option)
            let reply = entry.words.isEmpty ? "return" : "COMPREPLY=($(compgen -W \(q(entry.words)) -- \"$cur\")); return"
            s += "        \(pattern)) \(reply) ;;\n"
        }
        s += """
            esac
            $split && return
            if [[ -z $ended && $cur == -* ]]; then
                case $command in

        """
        for (options, paths) in model.byOptions {
            s += "            \(paths.map(Self.bashCase).joined(separator: "|"))) COMPREPLY=($(compgen -W \(q(options)) -- \"$cur\")) ;;\n"
        }
        s += """
                esac
                return
            fi
            case $command in

        """
        for entry in model.entries where entry.bare > 0 || !entry.own.isEmpty {
            s += "        \(Self.bashCase(entry.path)))\n"
            s += "            case ${#args[@]} in\n"
            for (index, position) in entry.positions.enumerated() {
                switch position {
                case .words(let words):
                    s += "                \(index)) COMPREPLY=($(compgen -W \(q(words.map(\.word))) -- \"$cur\")) ;;\n"
                case .following(let pairs):
                    s += "                \(index))\n"
                    s += "                    case ${args[\(index - 1)]} in\n"
                    for (words, afters) in Self.grouped(pairs) {
                        s += "                        \(afters.joined(separator: "|"))) COMPREPLY=($(compgen -W \(q(words)) -- \"$cur\")) ;;\n"
                    }
                    s += "                    esac ;;\n"
                case .nothing:
                    continue
                }
            }
            if !entry.own.isEmpty {
                s += "                *) [[ -z $ended ]] && COMPREPLY=($(compgen -W \(q(CompletionModel.spellings(entry.own))) -- \"$cur\")) ;;\n"
            }
            s += "            esac ;;\n"
        }
        s += """
            esac
        }
        complete -F \(function) \(program)

        """
        return s
    }

    /// `*:--scheduler` (any command), `history:-n|history:--limit`, `'account login:--server'`.
    static func bashOptionPattern(command: String?, option: OptionDeclaration) -> String {
        ([option.long] + (option.short.map { [$0] } ?? [])).map { spelling in
            command.map { "'\($0):\(spelling)'" } ?? "*:" + spelling
        }.joined(separator: "|")
    }

    /// A `case` pattern for a command path: `''`, `set`, `'account login'`.
    static func bashCase(_ path: String) -> String {
        path.isEmpty || path.contains(" ") ? "'\(path)'" : path
    }

    /// Earlier words grouped by the words they allow after them, in first-seen order.
    static func grouped(_ pairs: [(after: String, words: [String])]) -> [(words: [String], afters: [String])] {
        var groups: [(words: [String], afters: [String])] = []
        for pair in pairs {
            if let index = groups.firstIndex(where: { $0.words == pair.words }) {
                groups[index].afters.append(pair.after)
            } else {
                groups.append((pair.words, [pair.after]))
            }
        }
        return groups
    }
}
