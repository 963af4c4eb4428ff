@testable import NotifApp
import SettingsUI
import Testing

/// Which worker lane carries each of the page's effects: saves stay in order with settings
/// reads, an apply and a status read share the scheduler's lane, and the chooser's check and a
/// test notification never wait behind an apply that hangs.
@Suite struct PageLaneTests {
    @Test func eachEffectGoesToTheLaneOfItsKind() {
        let expected: [(Effect, PageSession.LaneKind)] = [
            (.commit([.toggle(.tipsAndUpdates, true)]), .saves), (.reloadPreferences, .saves),
            (.apply(choosing: false), .scheduler), (.apply(choosing: true), .scheduler), (.refreshStatus, .scheduler),
            (.sendTest, .tests), (.checkSchedulers, .checks),
            (.loadHistory, .server), (.registerDevice, .server),
        ]
        for (effect, lane) in expected {
            #expect(PageSession.laneKind(for: effect) == lane, "\(effect)")
        }
    }

    @Test func nothingWaitsBehindAnApplyButAStatusRead() {
        let behindApply = [Effect.commit([]), .reloadPreferences, .sendTest, .checkSchedulers, .loadHistory, .registerDevice]
            .filter { PageSession.laneKind(for: $0) == .scheduler }
        #expect(behindApply.isEmpty, "\(behindApply)")
    }
}
