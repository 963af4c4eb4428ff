/// `notif completion fish`: `complete` lines for fish, made from the declaration, with one
/// helper that finds the command and its arguments so far.
extension CommandLineDeclaration {
    public var fishCompletion: String {
        let model = CompletionModel(self)
        let helper = "__\(program.replacing("-", with: "_"))"
        let qt = CompletionModel.quotedText
        var s = """
        # fish completion for \(program); made by `\(program) completion fish` from its command-line declaration.
        # \(helper)_words: the command (first line; empty when none yet), then its arguments, one a line.
        function \(helper)_words
            set -l tokens (commandline -opc)
            set -e tokens[1]
            set -l command ''
            set -l args
            set -l skip 0
            set -l ended 0
            for word in $tokens
                if test $skip = 1
                    set skip 0
                    continue
                end
                if test $ended = 0
                    switch "$command:$word"
                        case '*:--'
                            set ended 1
                            continue
                        case '*:--*=*'
                            continue

        """
        s += "                case " + model.valued.flatMap { entry in
            ([entry.option.long] + (entry.option.short.map { [$0] } ?? [])).map { qt((entry.command ?? "*") + ":" + $0) }
        }.joined(separator: " ") + "\n"
        s += """
                            set skip 1
                            continue
                        case '*:-?*'
                            continue
                    end
                end
                if test -z "$command"
                    set command $word
                    continue
                end

        """
        for (parent, subs) in model.parents {
            s += "        if test \"$command\" = \(qt(parent)); and contains -- $word \(subs.joined(separator: " "))\n"
            s += "            set command \"$command $word\"\n"
            s += "            continue\n"
            s += "        end\n"
        }
        s += """
                set -a args $word
            end
            printf '%s\\n' "$command" $args
        end

        # \(helper)_at COMMAND N [WORD...]: the command is COMMAND with N arguments so far (and the last one of them is a WORD).
        function \(helper)_at
            set -l state (\(helper)_words)
            test "$state[1]" = "$argv[1]"; or return 1
            test (count $state) -eq (math $argv[2] + 1); or return 1
            if set -q argv[3]
                contains -- "$state[-1]" $argv[3..-1]; or return 1
            end
        end

        # \(helper)_from COMMAND N: the command is COMMAND with at least N arguments so far.
        function \(helper)_from
            set -l state (\(helper)_words)
            test "$state[1]" = "$argv[1]"; and test (count $state) -gt $argv[2]
        end

        # \(helper)_in COMMAND: the command is COMMAND.
        function \(helper)_in
            set -l state (\(helper)_words)
            test "$state[1]" = "$argv[1]"
        end

        complete -c \(program) -f

        """
        for option in model.globals {
            s += "complete -c \(program)" + Self.fishOption(option) + "\n"
        }
        for entry in model.entries {
            let condition = { (n: Int, words: [String]) in
                qt("\(helper)_at \(qt(entry.path)) \(n)" + (words.isEmpty ? "" : " " + words.joined(separator: " ")))
            }
            for (index, position) in entry.positions.enumerated() {
                switch position {
                case .words(let words):
                    for word in words {
                        s += "complete -c \(program) -n \(condition(index, [])) -a \(qt(word.word))" + (word.summary.isEmpty ? "" : " -d \(qt(word.summary))") + "\n"
                    }
                case .following(let pairs):
                    for (words, afters) in Self.grouped(pairs) {
                        s += "complete -c \(program) -n \(condition(index, afters)) -a \(qt(words.joined(separator: " ")))\n"
                    }
                case .nothing:
                    continue
                }
            }
            guard !entry.path.isEmpty else { continue }
            for option in entry.own {
                s += "complete -c \(program) -n \(qt("\(helper)_in \(qt(entry.path))"))" + Self.fishOption(option) + "\n"
            }
            // Where no argument is wanted, the options are offered before a `-` is typed.
            for option in entry.own {
                for spelling in CompletionModel.spellings([option]) {
                    s += "complete -c \(program) -n \(qt("\(helper)_from \(qt(entry.path)) \(entry.bare)")) -a \(qt(spelling)) -d \(qt(Self.fishSummary(option)))\n"
                }
            }
        }
        return s
    }

    /// ` -s n -l limit -x -d '…'`, with `-a` for the words a value may be.
    static func fishOption(_ option: OptionDeclaration) -> String {
        var s = ""
        if let short = option.short { s += " -s " + short.dropFirst() }
        s += " -l " + option.long.dropFirst(2)
        if let value = option.value {
            s += " -x"
            if !value.kind.offered.isEmpty { s += " -a " + CompletionModel.quotedText(value.kind.offered.joined(separator: " ")) }
        }
        return s + " -d " + CompletionModel.quotedText(fishSummary(option))
    }

    /// An option's summary up to its first pause: fish shows it beside the option.
    static func fishSummary(_ option: OptionDeclaration) -> String {
        option.summary.prefix { $0 != ":" && $0 != ";" && $0 != "(" }.trimmingCharacters(in: " ")
    }
}

extension StringProtocol {
    /// Without the given characters at either end.
    func trimmingCharacters(in set: String) -> String {
        var text = Substring(self)
        while let first = text.first, set.contains(first) { text = text.dropFirst() }
        while let last = text.last, set.contains(last) { text = text.dropLast() }
        return String(text)
    }
}
