import Foundation
import Testing
import TapedeckWebSocket

/// What a receiver must refuse (RFC 6455 §5 and §7.4), and the close code it refuses with.
@Suite struct FrameRuleTests {
    /// The error decoding `wire` as `role` throws, if any.
    func failure(_ wire: [UInt8], role: WebSocketRole = .client, limits: WebSocketLimits = WebSocketLimits()) -> WebSocketProtocolError? {
        var decoder = WebSocketFrameDecoder(role: role, limits: limits)
        decoder.append(wire)
        do {
            while try decoder.nextFrame() != nil {}
            return nil
        } catch {
            return error
        }
    }

    func serverFrame(_ opcode: WebSocketOpcode, _ payload: [UInt8] = [], final: Bool = true) -> [UInt8] {
        WebSocketFrameEncoder.encode(WebSocketFrame(opcode: opcode, payload: Data(payload), isFinal: final), maskingKey: nil)
    }

    @Test(arguments: [UInt8(0x3), 0x4, 0x5, 0x6, 0x7, 0xB, 0xC, 0xD, 0xE, 0xF])
    func reservedOpcodesCloseWithProtocolError(opcode: UInt8) {
        let error = failure([0x80 | opcode, 0x00])
        #expect(error == .reservedOpcode(opcode))
        #expect(error?.closeCode == .protocolError)
    }

    @Test func reservedBitsNeedANegotiatedExtension() throws {
        #expect(failure([0xC1, 0x00]) == .reservedBitsSet(4))
        #expect(failure([0x91, 0x00]) == .reservedBitsSet(1))
        var decoder = WebSocketFrameDecoder(role: .client, allowedReservedBits: 4)
        decoder.append([0xC1, 0x00])
        #expect(try decoder.nextFrame()?.reservedBits == 4)
    }

    @Test func aServerRefusesAnUnmaskedFrameAndAClientAMaskedOne() {
        let unmasked = serverFrame(.text, Array("hi".utf8))
        let masked = WebSocketFrameEncoder.encode(WebSocketFrame(opcode: .text, payload: Data("hi".utf8)), maskingKey: .random())
        #expect(failure(unmasked, role: .server) == .maskingMismatch(expectedMasked: true))
        #expect(failure(masked, role: .client) == .maskingMismatch(expectedMasked: false))
        #expect(failure(unmasked, role: .server)?.closeCode == .protocolError)
        #expect(failure(masked, role: .server) == nil)
    }

    @Test func controlFramesAreFinalAndShort() {
        #expect(failure(serverFrame(.ping, [1], final: false)) == .fragmentedControlFrame(.ping))
        #expect(failure(serverFrame(.pong, Array(repeating: 0, count: 126))) == .controlFrameTooLong(.pong, length: 126))
        #expect(failure(serverFrame(.ping, Array(repeating: 0, count: 125))) == nil)
    }

    @Test func controlFramesMayComeBetweenFragments() throws {
        let wire = serverFrame(.text, Array("Hel".utf8), final: false) + serverFrame(.ping, [7])
            + serverFrame(.continuation, Array("lo".utf8), final: false) + serverFrame(.pong, [])
            + serverFrame(.continuation, [], final: true)
        var parser = WebSocketParser(role: .client)
        parser.append(wire)
        #expect(try parser.next() == .ping(Data([7])))
        #expect(try parser.next() == .pong(Data()))
        #expect(try parser.next() == .message(.text("Hello")))
        #expect(try parser.next() == nil)
    }

    @Test func fragmentsMustFollowInOrder() {
        #expect(failure(serverFrame(.continuation, [1])) == .unexpectedContinuation)
        #expect(failure(serverFrame(.binary, [1], final: false) + serverFrame(.text, [0x41])) == .messageInterrupted(by: .text))
        #expect(failure(serverFrame(.binary, [1]) + serverFrame(.continuation, [1])) == .unexpectedContinuation)
    }

    @Test func sixtyFourBitLengthWithItsHighBitSet() {
        #expect(failure([0x82, 0x7F, 0x80, 0, 0, 0, 0, 0, 0, 1]) == .payloadLengthHighBitSet)
    }

    @Test func closePayloads() throws {
        #expect(failure(serverFrame(.close, [0x03])) == .closePayloadTooShort)
        for code: UInt16 in [0, 999, 1004, 1005, 1006, 1015, 1016, 2999, 5000, 65535] {
            #expect(failure(serverFrame(.close, [UInt8(code >> 8), UInt8(code & 0xFF)])) == .invalidCloseCode(code), "code \(code)")
        }
        for code: UInt16 in [1000, 1001, 1002, 1003, 1007, 1011, 1014, 3000, 4999] {
            #expect(failure(serverFrame(.close, [UInt8(code >> 8), UInt8(code & 0xFF)])) == nil, "code \(code)")
        }
        let badReason = failure(serverFrame(.close, [0x03, 0xE8, 0x61, 0xFF]))
        #expect(badReason == .invalidUTF8(offset: 1, inCloseReason: true))
        #expect(badReason?.closeCode == .invalidPayloadData)
        #expect(failure(serverFrame(.close, [0x03, 0xE8, 0xE2, 0x82])) == .invalidUTF8(offset: 2, inCloseReason: true))

        var parser = WebSocketParser(role: .client)
        parser.append(serverFrame(.close, []) + WebSocketFrameEncoder.encode(.close(code: .goingAway, reason: "bye"), maskingKey: nil))
        #expect(try parser.next() == .close(WebSocketClose(code: .noStatusReceived)))
        #expect(try parser.next() == .close(WebSocketClose(code: .goingAway, reason: "bye")))
    }

    @Test func aCloseReasonIsCutToFitAControlFrameAtACharacterBoundary() throws {
        let frame = WebSocketFrame.close(code: .normalClosure, reason: String(repeating: "é", count: 100))
        #expect(frame.payload.count == 124)  // 2 + 61 two-byte characters; a 62nd would pass 125
        #expect(failure(WebSocketFrameEncoder.encode(frame, maskingKey: nil)) == nil)
    }

    @Test func invalidUTF8InTextIsRefusedWithInvalidPayloadData() {
        let error = failure(serverFrame(.text, [0x61, 0x62, 0xC0, 0x80]))
        #expect(error == .invalidUTF8(offset: 2, inCloseReason: false))
        #expect(error?.closeCode == .invalidPayloadData)
        // A surrogate (ED A0 80) and a code point over U+10FFFF (F4 90 80 80) are not UTF-8 either.
        #expect(failure(serverFrame(.text, [0xED, 0xA0, 0x80])) == .invalidUTF8(offset: 1, inCloseReason: false))
        #expect(failure(serverFrame(.text, [0xF4, 0x90, 0x80, 0x80])) == .invalidUTF8(offset: 1, inCloseReason: false))
        // Binary payloads are not checked.
        #expect(failure(serverFrame(.binary, [0xC0, 0x80])) == nil)
    }

    @Test func utf8IsCheckedAcrossFragmentsAndFailsAtTheFirstBadFragment() throws {
        // "€" (E2 82 AC) split over two fragments is fine.
        var parser = WebSocketParser(role: .client)
        parser.append(serverFrame(.text, [0x61, 0xE2, 0x82], final: false) + serverFrame(.continuation, [0xAC]))
        #expect(try parser.next() == .message(.text("a€")))

        // A bad byte in the first fragment fails before the message is complete.
        var decoder = WebSocketFrameDecoder(role: .client)
        decoder.append(serverFrame(.text, [0x61, 0xFF], final: false))
        #expect(throws: WebSocketProtocolError.invalidUTF8(offset: 1, inCloseReason: false)) { try decoder.nextFrame() }

        // A character cut off by the final fragment.
        #expect(failure(serverFrame(.text, [0x61], final: false) + serverFrame(.continuation, [0xE2, 0x82]))
            == .invalidUTF8(offset: 3, inCloseReason: false))
        // The offset counts from the message's start, across fragments.
        #expect(failure(serverFrame(.text, [0x61, 0x62], final: false) + serverFrame(.continuation, [0x63, 0x80]))
            == .invalidUTF8(offset: 3, inCloseReason: false))
    }

    @Test func frameLimitIsCheckedFromTheHeaderBeforeThePayloadArrives() throws {
        var decoder = WebSocketFrameDecoder(role: .client, limits: WebSocketLimits(maximumFrameSize: 1000))
        decoder.append([0x82, 0x7F, 0, 0, 0, 1, 0, 0, 0, 0])  // announces 4 GiB, sends none of it
        #expect(throws: WebSocketProtocolError.frameTooBig(length: 1 << 32, limit: 1000)) { try decoder.nextFrame() }
        #expect(WebSocketProtocolError.frameTooBig(length: 1, limit: 0).closeCode == .messageTooBig)
        #expect(failure(serverFrame(.binary, Array(repeating: 0, count: 1000)), limits: WebSocketLimits(maximumFrameSize: 1000)) == nil)
    }

    @Test func messageLimitCountsEveryFragment() {
        let limits = WebSocketLimits(maximumFrameSize: 100, maximumMessageSize: 250)
        let fragment = Array(repeating: UInt8(0x61), count: 100)
        let error = failure(
            serverFrame(.text, fragment, final: false) + serverFrame(.continuation, fragment, final: false)
                + serverFrame(.continuation, fragment), limits: limits)
        #expect(error == .messageTooBig(length: 300, limit: 250))
        #expect(error?.closeCode == .messageTooBig)
        // The count starts again with each message.
        let withinLimits = serverFrame(.text, fragment, final: false) + serverFrame(.continuation, fragment)
        #expect(failure(withinLimits + withinLimits, limits: limits) == nil)
    }

    @Test func aFailedDecoderStaysFailed() {
        var decoder = WebSocketFrameDecoder(role: .client)
        decoder.append([0x83, 0x00])
        #expect(throws: WebSocketProtocolError.reservedOpcode(3)) { try decoder.nextFrame() }
        decoder.append(serverFrame(.text, [0x61]))
        #expect(throws: WebSocketProtocolError.reservedOpcode(3)) { try decoder.nextFrame() }
    }

    @Test func everyReasonFitsACloseFrame() {
        let errors: [WebSocketProtocolError] = [
            .reservedOpcode(0xF), .reservedBitsSet(7), .maskingMismatch(expectedMasked: true), .fragmentedControlFrame(.close),
            .controlFrameTooLong(.ping, length: .max), .payloadLengthHighBitSet, .unexpectedContinuation,
            .messageInterrupted(by: .binary), .closePayloadTooShort, .invalidCloseCode(65535),
            .invalidUTF8(offset: .max, inCloseReason: true), .frameTooBig(length: .max, limit: .max),
            .messageTooBig(length: .max, limit: .max),
        ]
        for error in errors {
            #expect(WebSocketFrame.close(code: error.closeCode, reason: error.reason).payload.count == 2 + error.reason.utf8.count)
        }
    }
}
