import Synchronization
import Testing
@testable import AccountClient

/// What the app API puts on the wire, recorded instead of sent.
@Suite struct AccountAPITests {
    final class Recorder: HTTPTransport {
        let requests = Mutex<[HTTPRequest]>([])
        func send(_ request: HTTPRequest) throws(AccountError) -> HTTPResponse {
            requests.withLock { $0.append(request) }
            return HTTPResponse(status: 204, body: [])
        }
    }

    @Test func aDeviceTokenIsPercentEncodedInTheURLKeepingOnlyUnreservedBytes() throws {
        let recorder = Recorder()
        let api = AccountAPI(server: try ServerURL(parsing: "https://example.org"), transport: recorder)
        try api.unregister(deviceToken: "a b/c~é?-_.Z9", authToken: "t")
        let request = recorder.requests.withLock { $0.first }
        #expect(request?.method == "DELETE")
        #expect(request?.url == "https://example.org/api/v1/app/device-tokens/a%20b%2Fc%7E%C3%A9%3F-_.Z9")
    }
}
