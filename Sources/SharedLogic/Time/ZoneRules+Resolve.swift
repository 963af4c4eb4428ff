extension ZoneRules {
    /// The instant a wall-clock time happens. Skipped (spring-forward gap): the first instant after the gap.
    /// Repeated (fall-back overlap): the earlier of the two.
    ///
    /// Every instant `t` reads on the wall clock as `t + offset(t)`. The answer is the earliest `t`
    /// whose reading is at or past `local`: the exact match when there is one (the earlier one in an
    /// overlap), the transition ending the gap otherwise. Only instants in `local − maxOffset ...
    /// local − minOffset` can qualify, and the reading at the window's end is always at or past
    /// `local`, so the search walks the few constant-offset stretches in that window and stops.
    public func resolve(_ local: LocalDateTime) -> Instant {
        let wall = local.secondsSinceEpoch
        let lower = TimeArithmetic.add(wall, -Int64(offsetBounds.upperBound))
        let upper = TimeArithmetic.add(wall, -Int64(offsetBounds.lowerBound))
        var stretchStart = lower
        for stretchEnd in switches(after: lower, through: upper) {
            let candidate = earliestReachingWall(wall, from: stretchStart)
            if candidate < stretchEnd { return Instant(seconds: candidate) }
            stretchStart = stretchEnd
        }
        // The final stretch runs to `upper`, where the reading is at or past `wall` by construction.
        return Instant(seconds: earliestReachingWall(wall, from: stretchStart))
    }

    /// Earliest instant at or after `start` that reads `wall` or later, assuming the offset at
    /// `start` stays in effect.
    private func earliestReachingWall(_ wall: Int64, from start: Int64) -> Int64 {
        let offset = Int64(localTimeType(at: start).offset)
        return max(start, TimeArithmetic.add(wall, -offset))
    }
}
