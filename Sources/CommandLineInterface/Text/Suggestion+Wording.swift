import SharedLogic

extension Suggestion {
    /// `head`, then "; did you mean X?" when a candidate is near `word`, else "; use a, b or c"
    /// (or nothing more when `listing` is false: the list is too long, or shown elsewhere).
    public static func after(_ head: String, word: String, among candidates: [String], listing: Bool = true) -> String {
        let near = nearest(to: word, in: candidates)
        if !near.isEmpty { return head + "; did you mean " + Wording.list(near) + "?" }
        return listing && !candidates.isEmpty ? head + "; use " + Wording.list(candidates) : head
    }
}
