import LinuxGateway
import Testing
import CommandLineInterface

@Suite struct WaiterNameTests {
    /// The hidden command `notif deliver` starts is the one the declaration parses.
    @Test func theDeclaredWaiterIsTheOneDeliverStarts() {
        #expect(NotifCommandLine.declaration.command(DetachedActionWaiter.command)?.hidden == true)
        #expect(NotifCommandLine.reminderActionsCommand == DetachedActionWaiter.command)
    }
}
