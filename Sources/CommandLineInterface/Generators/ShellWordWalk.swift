/// The loop bash's and zsh's completion functions both run over the words before the cursor.
extension CommandLineDeclaration {
    /// Shell text: skips options and the values they take, finds the command (and its
    /// subcommand) and collects the other words in `args`, from word `first` up to the cursor
    /// (`end`: the shell's variable holding its index).
    static func shellWordWalk(_ model: CompletionModel, from first: Int, before end: String) -> String {
        var s = """
            for ((i = \(first); i < \(end); i++)); do
                word=${words[i]}
                if [[ -z $ended ]]; then
                    case $word in
                        --) ended=1; continue ;;
                        --*=*) continue ;;
                    esac
                    case "$command:$word" in

        """
        s += "                " + model.valued.map { bashOptionPattern(command: $0.command, option: $0.option) }.joined(separator: "|")
            + ") ((i++)); continue ;;\n"
        s += """
                    esac
                    [[ $word == -?* ]] && continue
                fi
                if [[ -z $command ]]; then
                    command=$word
                    continue
                fi

        """
        if !model.parents.isEmpty {
            s += "        case $command in\n"
            for (parent, subs) in model.parents {
                s += "            \(bashCase(parent))) case $word in \(subs.joined(separator: "|"))) command=\"$command $word\"; continue ;; esac ;;\n"
            }
            s += "        esac\n"
        }
        s += """
                args+=("$word")
            done

        """
        return s
    }
}
