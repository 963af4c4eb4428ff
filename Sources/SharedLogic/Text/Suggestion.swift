/// The words notif knows that a word it does not know probably meant ("did you mean set?"):
/// for commands, settings and values, and for the keys of settings.json.
public enum Suggestion {
    /// The candidates `word` most likely meant, nearest first: those it is the start of, else
    /// those a few typing slips away (one per three characters; none for shorter words).
    /// Empty when nothing is close or more than three are.
    public static func nearest(to word: String, in candidates: [String]) -> [String] {
        let typed = Array(word.lowercased())
        guard !typed.isEmpty else { return [] }
        let starts = candidates.filter { $0.lowercased().hasPrefix(word.lowercased()) }
        if !starts.isEmpty { return starts.count <= 3 ? starts : [] }
        let allowed = typed.count / 3
        guard allowed > 0 else { return [] }
        let near = candidates.map { ($0, distance(typed, Array($0.lowercased()))) }.filter { $0.1 <= allowed }
        guard let best = near.map(\.1).min() else { return [] }
        let nearest = near.filter { $0.1 == best }.map(\.0)
        return nearest.count <= 3 ? nearest : []
    }

    /// How many single-character insertions, deletions, substitutions or swaps of neighbours
    /// turn `a` into `b`.
    static func distance(_ a: [Character], _ b: [Character]) -> Int {
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous2 = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var row = [i] + [Int](repeating: 0, count: b.count)
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                row[j] = min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    row[j] = min(row[j], previous2[j - 2] + 1)
                }
            }
            previous2 = previous
            previous = row
        }
        return previous[b.count]
    }
}
