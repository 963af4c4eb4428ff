import Testing
@testable import LinuxGateway

@Test func moduleLoads() { #expect(Bool(true)) }
