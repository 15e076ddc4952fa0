// The client stack re-exports the transport seam, so `import Tapedeck` is all an app needs.
@_exported import TapedeckCore
