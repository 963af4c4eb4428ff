import SharedLogic

/// The `Scheduler:` line of the status area and the chooser it opens (`s`, or a click on the
/// line): auto, systemd, cron and embedded, each with whether it can be used here and why.
enum SchedulerChooser {
    /// `Scheduler: cron (auto; s changes)`: the scheduler in use, what put it there, and the key,
    /// shortened to fit `width` (the key first, then the note).
    static func line(_ state: AppState, fitting width: Int) -> String {
        let status = state.status
        let inUse = status.scheduler?.rawValue ?? (status.checked ? "none" : (state.unicode ? "checking…" : "checking..."))
        let saved = state.preferences.scheduler
        var note: String?
        if status.checked {
            if let overriddenBy = status.overriddenBy {
                note = overriddenBy
            } else if saved == .auto {
                note = "auto"
            } else if saved.rawValue == status.scheduler?.rawValue {
                note = "chosen"
            } else if status.scheduler != nil {
                note = "kept; chosen: \(saved.rawValue)"
            }
        }
        let candidates = [
            "Scheduler: \(inUse)" + (note.map { " (\($0); s changes)" } ?? " (s changes)"),
            "Scheduler: \(inUse)" + (note.map { " (\($0))" } ?? ""),
            "Scheduler: \(inUse)",
        ]
        return candidates.first { TextWidth.of($0) <= width } ?? candidates[candidates.count - 1]
    }

    /// What a choice means here, from the shell's last look at the machine.
    static func option(_ choice: SchedulerPreference, in status: SchedulerStatus) -> SchedulerUsability? {
        status.options.first { $0.choice == choice }
    }

    /// `notif picks` (auto), `checking…`, or the scheduler's `SchedulerUsability.label`.
    static func rowStatus(_ choice: SchedulerPreference, state: AppState) -> String {
        guard let option = option(choice, in: state.status) else { return state.unicode ? "checking…" : "checking..." }
        if choice == .auto { return "notif picks" }
        return option.label(inUse: choice.rawValue == state.status.scheduler?.rawValue, forThisRun: state.status.overridden)
    }

    static func draw(_ state: AppState, selected: SchedulerPreference, on canvas: inout Canvas) {
        let choices = SchedulerPreference.allCases
        let width = min(canvas.width - 4, 64)
        let inner = width - 4
        let overridden = state.status.overriddenBy.flatMap { by in state.status.scheduler.map { ($0.rawValue, by) } }
        // Why the highlighted choice can or cannot be used; first, with --scheduler, that this
        // run's scheduler was not chosen here. Room for the longest of them, so moving the
        // highlight never cuts one (nor resizes the box); cut only where the window is too short.
        func reason(_ choice: SchedulerPreference) -> String {
            let why = option(choice, in: state.status).map { Wording.capitalizedFirst($0.reason) }
                ?? (state.unicode ? "Checking the schedulers…" : "Checking the schedulers...")
            return overridden.map { "This run uses \($0.0): \($0.1) chose it for this run only; nothing is saved. " + why } ?? why
        }
        let longest = choices.map { TextWidth.wrap(reason($0), width: inner, unicode: state.unicode).count }.max() ?? 0
        let reasonRows = min(max(3, longest), canvas.height - choices.count - 7)
        let height = choices.count + reasonRows + 5
        let top = max(1, (canvas.height - height) / 2)
        let left = (canvas.width - width) / 2
        Chrome.box(top: top, left: left, width: width, height: height, title: "Scheduler", state: state, on: &canvas)
        for (i, choice) in choices.enumerated() {
            Chrome.choiceRow(choice.rawValue.padding(to: 10) + rowStatus(choice, state: state), saved: choice == state.preferences.scheduler,
                             selected: choice == selected, row: top + 2 + i, left: left, width: width, target: .scheduler(choice),
                             state: state, on: &canvas)
        }
        Chrome.paragraph(reason(selected), row: top + 3 + choices.count, left: left + 2, width: inner, role: .dialog,
                         maxRows: reasonRows, state: state, on: &canvas)
        canvas.clear(row: canvas.height - 1, columns: 0..<canvas.width)
        Chrome.keyBar(state, context: .list, on: &canvas)
    }
}

