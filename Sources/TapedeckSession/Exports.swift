// The session layer re-exports the transport seam, so `import TapedeckSession` is all a door needs.
@_exported import TapedeckCore
