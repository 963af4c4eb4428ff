import Glibc
@testable import NotifApp
import SettingsUI
import Testing

@Suite struct MailboxTests {
    private func readable(_ fd: Int32) -> Bool {
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, 0) == 1 && entry.revents & Int16(POLLIN) != 0
    }

    @Test func postedActionsWakeTheReaderAndComeOutOnceInOrder() throws {
        let mailbox = try #require(Mailbox())
        #expect(!readable(mailbox.readFD))
        #expect(mailbox.take().isEmpty)
        mailbox.post(.opened)
        mailbox.post(.click(row: 3, column: 7))
        #expect(readable(mailbox.readFD))
        #expect(mailbox.take() == [.opened, .click(row: 3, column: 7)])
        // Taken: the pipe is drained, so the key reader sleeps again, and nothing comes twice.
        #expect(!readable(mailbox.readFD))
        #expect(mailbox.take().isEmpty)
    }

    @Test func actionsPostedFromOtherThreadsAreAllDelivered() async throws {
        let mailbox = try #require(Mailbox())
        await withTaskGroup(of: Void.self) { group in
            for row in 0..<200 { group.addTask { mailbox.post(.click(row: row, column: 0)) } }
        }
        // More posts than the pipe needs bytes for a wake-up: the list still holds every one.
        let rows = mailbox.take().compactMap { action -> Int? in
            if case .click(let row, _) = action { return row }
            return nil
        }
        #expect(rows.sorted() == Array(0..<200))
    }
}
