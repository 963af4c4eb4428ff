import SharedLogic

/// What a cell means, so the painter can style it (colour when allowed, attributes always)
/// and tests can check state without reading colours.
public enum Role: Hashable, Sendable {
    case normal, title, rule, focused, disabled, on, off, warning, error, notice, hint, dim
    case button, focusedButton, dialog
}

/// One terminal cell. A wide character fills two cells; the second is a continuation.
/// Cells hold Unicode scalars (what a terminal cell shows), which keeps rendering cheap.
public struct Cell: Equatable, Sendable {
    public var scalar: Unicode.Scalar
    public var role: Role
    public var continuation: Bool

    public init(scalar: Unicode.Scalar, role: Role, continuation: Bool) {
        self.scalar = scalar
        self.role = role
        self.continuation = continuation
    }

    public var character: Character { Character(scalar) }

    public static let blank = Cell(scalar: " ", role: .normal, continuation: false)
}

/// Something a mouse click can hit.
public enum HitTarget: Equatable, Sendable {
    case row(PageRow)
    case button(Button)
    case sound(NotificationSound)
    /// The status area's `Scheduler:` line, which opens the chooser.
    case schedulerLine
    /// An entry of the History screen (by index), which opens it whole.
    case historyRow(Int)
    /// A choice in the scheduler chooser.
    case scheduler(SchedulerPreference)
}

/// A rectangle of a canvas that a click hits.
public struct Hotspot: Equatable, Sendable {
    public let row: Int
    public let columns: Range<Int>
    public let target: HitTarget
}

/// The rendered screen: a grid of cells with roles, where the hardware cursor rests, and what
/// clicks hit. Pure data; the ncurses painter copies it to the terminal.
public struct Canvas: Equatable, Sendable {
    public let width: Int
    public let height: Int
    public private(set) var cells: [Cell]
    /// Where the cursor is parked (the focused row), so screen readers follow focus.
    public var cursor: (row: Int, column: Int)? {
        get { cursorRow.map { ($0, cursorColumn) } }
        set {
            cursorRow = newValue?.row
            cursorColumn = newValue?.column ?? 0
        }
    }
    private var cursorRow: Int?
    private var cursorColumn = 0
    public var hotspots: [Hotspot] = []

    public init(width: Int, height: Int) {
        self.width = max(0, width)
        self.height = max(0, height)
        cells = Array(repeating: .blank, count: self.width * self.height)
    }

    public subscript(row: Int, column: Int) -> Cell {
        cells[row * width + column]
    }

    /// Writes `text` from (row, column), clipped to `maxWidth` columns and the canvas. Returns the columns used.
    @discardableResult
    public mutating func put(_ text: String, row: Int, column: Int, role: Role = .normal, maxWidth: Int? = nil) -> Int {
        guard row >= 0, row < height, column < width else { return 0 }
        let limit = min(maxWidth ?? width, width - max(column, 0))
        var col = column
        var used = 0
        for scalar in text.unicodeScalars {
            let w = TextWidth.of(scalar)
            if w == 0 { continue }
            if used + w > limit { break }
            if !TextWidth.isPrintable(scalar) {
                // What this terminal cannot show is drawn as its ASCII stand-in (`...` for `…`,
                // `?` for most), as wide as TextWidth counted it: the painter and ncurses then
                // agree on where everything after it goes.
                for (offset, stand) in ASCIIText.replacement(for: scalar).unicodeScalars.enumerated() where col + offset >= 0 && col + offset < width {
                    cells[row * width + col + offset] = Cell(scalar: stand, role: role, continuation: false)
                }
            } else if col >= 0 {
                cells[row * width + col] = Cell(scalar: scalar, role: role, continuation: false)
                if w == 2 && col + 1 < width {
                    cells[row * width + col + 1] = Cell(scalar: " ", role: role, continuation: true)
                }
            }
            col += w
            used += w
        }
        return used
    }

    /// Fills a run of cells with spaces in `role`.
    public mutating func clear(row: Int, columns: Range<Int>, role: Role = .normal) {
        guard row >= 0, row < height else { return }
        for col in columns where col >= 0 && col < width {
            cells[row * width + col] = Cell(scalar: " ", role: role, continuation: false)
        }
    }

    public func text(ofRow row: Int) -> String {
        var line = String.UnicodeScalarView()
        for col in 0..<width where !self[row, col].continuation {
            line.append(self[row, col].scalar)
        }
        var text = String(line)
        while text.last == " " { text.removeLast() }
        return text
    }

    /// The whole screen as text, trailing spaces trimmed: the form screen snapshots take.
    public var text: String {
        (0..<height).map { text(ofRow: $0) }.joined(separator: "\n") + "\n"
    }

    /// The first row holding `needle`.
    public func row(containing needle: String) -> Int? {
        (0..<height).first { text(ofRow: $0).contains(needle) }
    }

    public func hit(row: Int, column: Int) -> HitTarget? {
        hotspots.last { $0.row == row && $0.columns.contains(column) }?.target
    }

    public static func == (a: Canvas, b: Canvas) -> Bool {
        a.width == b.width && a.height == b.height && a.cells == b.cells && a.cursorRow == b.cursorRow
            && a.cursorColumn == b.cursorColumn && a.hotspots == b.hotspots
    }
}
