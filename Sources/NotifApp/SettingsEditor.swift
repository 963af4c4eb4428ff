import Glibc
import LinuxGateway
import SharedLogic
import Storage

/// `notif edit` (and the page's `e`), as `crontab -e` and `visudo` work: settings.json is copied
/// to a private file beside it, opened in the person's editor, and checked when the editor exits.
/// A mistake is named (line, column, fix) with the choice to edit again or keep the old file;
/// only a valid copy replaces settings.json, atomically and byte for byte as written, and only
/// when settings.json did not change meanwhile. Nothing the person wrote is lost: a copy that
/// could not be saved is kept, and its path said.
struct SettingsEditor {
    let store: PreferencesStore
    let lookup: (String) -> String?
    let output: Output
    /// The answer to "edit again?", one line; nil at the end of input.
    var readAnswer: () -> String? = { readLine() }

    /// How an edit ended.
    enum Outcome: Equatable {
        /// The editor left the copy as it was: nothing changed.
        case unchanged
        /// settings.json now holds the edit.
        case saved
        /// settings.json was left as it was, and why (said too).
        case notSaved(String)
        /// As `notSaved`, because this process got SIGTERM or SIGHUP (passed on to the editor):
        /// the caller ends as that signal asks.
        case stopped(by: Int32, String)
    }

    func run() -> Outcome {
        let path: String
        let original: [UInt8]?
        do {
            path = try store.resolvedSettingsPath()
            // A file someone is still writing is waited for (`load`), so the copy is not half of it.
            _ = try? store.load()
            original = try FileIO.read(path, limit: 1 << 20, own: true)
        } catch {
            return notSaved("\(error); nothing was changed")
        }
        // No file yet: the copy starts with the settings notif would write (the defaults).
        let start = original ?? Array(JSONWriter.pretty(PreferencesCodec.encode(NotificationPreferences(), catalog: store.catalog)).utf8)
        let copy = Posix.join(store.paths.configDirectory, "settings.edit-\(Hex.of(UInt32.random(in: 0...UInt32.max), width: 8)).json")
        do {
            try FileIO.makeDirectory(store.paths.configDirectory)
            try AtomicFile.create(start, at: copy)
        } catch {
            return notSaved("cannot make the private copy to edit: \(error); nothing was changed")
        }
        let editor = editorCommand()
        while true {
            let run = ForegroundProgram.run(editor.argv + [copy])
            if let signal = run.passedOn {
                // As Ctrl-C: the editor was ended (by the signal, passed on), nothing is saved.
                let message = giveUp(copy, start: start, "got signal \(signal) (\(String(cString: strsignal(signal)))) and passed it on to the editor (\(editor.name)), which ended")
                guard case .notSaved(let said) = message else { return message }
                return .stopped(by: signal, said)
            }
            switch run.ending {
            case .exited(0):
                break
            case .exited(127):
                // The shell that runs it says 127 for a command it cannot find (trial 40, R5).
                return giveUp(copy, start: start, "the editor (\(editor.name)) exited with status 127: the shell could not find it")
            case .exited(let code):
                return giveUp(copy, start: start, "the editor (\(editor.name)) exited with status \(code)")
            case .signalled(let signal):
                return giveUp(copy, start: start, "the editor (\(editor.name)) was ended by signal \(signal)")
            case .notStarted(let reason):
                return giveUp(copy, start: start, "the editor (\(editor.name)) could not be started: \(reason)")
            }
            let edited: [UInt8]
            do {
                edited = try FileIO.read(copy, limit: 1 << 20, own: true) ?? []
            } catch {
                return giveUp(copy, start: start, "the edited copy cannot be read: \(error)")
            }
            if edited == start {
                try? FileIO.remove(copy)
                output.line(original == nil ? "\(path) does not exist, and an unchanged edit does not make it: the defaults stay in use." : "\(path) is unchanged.")
                return .unchanged
            }
            do {
                try store.replace(with: edited, expecting: original)
                try? FileIO.remove(copy)
                output.line("Saved \(path).")
                for word in PreferencesCodec.mistypedKeys(in: try? JSONParser.parse(edited), catalog: store.catalog) { output.warn(word) }
                return .saved
            } catch {
                switch error {
                case .invalid, .newerVersion:
                    output.error(error.description.replacing(path, with: "the edited settings.json"))
                case .changedMeanwhile:
                    return giveUp(copy, start: start, "\(error); `notif edit` again starts from what it holds now")
                case .file:
                    return giveUp(copy, start: start, error.description)
                }
            }
            var answer: Substring = ""
            repeat {
                if !answer.isEmpty { output.err("Type e to edit again, or k to keep the old settings.json.\n") }
                output.err("Edit again (e), or keep the old settings.json and drop this edit (k)? [e] ")
                guard let said = readAnswer()?.lowercased().drop(while: { $0 == " " || $0 == "\t" }) else {
                    return giveUp(copy, start: start, "no answer")
                }
                answer = said.isEmpty ? "e" : said
            } while !answer.hasPrefix("e") && !answer.hasPrefix("k")
            if answer.hasPrefix("k") {
                try? FileIO.remove(copy)
                output.line("\(path) was not changed; the edit was dropped.")
                return .notSaved("settings.json was not changed; the edit was dropped.")
            }
        }
    }

    /// Stops without saving: says why, and keeps the copy when the person changed it, or when
    /// the editor left a file of its own beside it (vim's `.NAME.swp` holds what was not saved).
    private func giveUp(_ copy: String, start: [UInt8], _ why: String) -> Outcome {
        let edited = (try? FileIO.read(copy, limit: 1 << 20, own: true)) ?? nil
        let name = Posix.baseName(of: copy), directory = Posix.directory(of: copy)
        let beside = ((try? FileIO.names(in: directory)) ?? []).filter { $0 != name && $0.contains(name) }.sorted()
        if let edited, edited != start || !beside.isEmpty {
            let editorFiles = beside.isEmpty ? "" : " (the editor's own: " + beside.map { Posix.join(directory, $0) }.joined(separator: ", ") + ")"
            return notSaved("\(why): settings.json was not changed; your edit is kept in \(copy)\(editorFiles)")
        }
        try? FileIO.remove(copy)
        return notSaved("\(why): settings.json was not changed")
    }

    private func notSaved(_ message: String) -> Outcome {
        output.error(message)
        return .notSaved(message)
    }

    /// `$VISUAL`, else `$EDITOR` (either may hold options: run by /bin/sh, as `crontab -e`
    /// does), else sensible-editor when it is on PATH, else vi; the file to edit follows.
    func editorCommand() -> (argv: [String], name: String) {
        for variable in ["VISUAL", "EDITOR"] {
            if let value = lookup(variable), !value.allSatisfy({ $0 == " " || $0 == "\t" }) {
                return (["/bin/sh", "-c", value + " \"$1\"", "notif-edit"], value)
            }
        }
        let path = (lookup("PATH") ?? "/usr/bin:/bin").split(separator: ":").map(String.init)
        if path.contains(where: { FileIO.isExecutable(Posix.join($0, "sensible-editor")) }) {
            return (["sensible-editor"], "sensible-editor")
        }
        return (["vi"], "vi")
    }
}
