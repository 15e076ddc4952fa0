// The client stack re-exports the transport seam and the session layer, so `import Tapedeck` is all an app needs.
@_exported import TapedeckCore
@_exported import TapedeckSession
