// The cassette's WebSocket values, which this module's API speaks in: a user of the client imports this module alone.
@_exported import struct TapedeckCassette.WebSocketClose
@_exported import struct TapedeckCassette.WebSocketCloseCode
@_exported import struct TapedeckCassette.WebSocketTranscript
@_exported import struct TapedeckCassette.WebSocketFrameMatcher
@_exported import struct TapedeckCassette.ConversationFault
@_exported import enum TapedeckCassette.InteractionFault
