extension CurlTransfer {
    /// A transfer's bookkeeping apart from libcurl: when it last moved a byte (for the idle timeout) and which
    /// progress events are due. Pure: monotonic nanoseconds and byte counts in, decisions out, so it is tested
    /// without a socket.
    ///
    /// Progress is throttled to one event per ``progressInterval`` a direction, so a fast transfer does not flood the
    /// event stream; but the first body bytes after a quiet spell of that length go out at once, so each event says
    /// when its bytes came. Bytes held back by the limit go out on libcurl's progress callback, which it calls even
    /// when the transfer is idle, and the last count of each direction always goes out at the end.
    ///
    /// ```swift
    /// var state = CurlTransfer.StateMachine(idleTimeout: 1_000_000_000, now: 0)
    /// state.downloadProgressDue(received: 10, afterWrite: true, at: 20_000_000)   // true: the first bytes of a burst
    /// state.downloadProgressDue(received: 20, afterWrite: true, at: 21_000_000)   // false: 1 ms later
    /// state.isIdle(at: 2_000_000_000)                                             // true
    /// ```
    struct StateMachine {
        /// The shortest time between two progress events of one direction, and the quiet spell that starts a burst.
        static let progressInterval: UInt64 = 10_000_000

        /// How long the transfer may move no byte before it times out.
        let idleTimeout: UInt64
        /// When the last byte moved in either direction.
        private(set) var lastActivity: UInt64
        /// When the progress callback last emitted.
        private var lastProgressTurn: UInt64 = 0
        private var lastDownloadEmission: UInt64 = 0
        private var lastDownloadWrite: UInt64 = 0
        /// The last counts reported, -1 before the first.
        private(set) var reportedDownload: Int64 = -1
        private(set) var reportedUpload: Int64 = -1

        init(idleTimeout: UInt64, now: UInt64) {
            self.idleTimeout = idleTimeout
            self.lastActivity = now
        }

        /// Notes that bytes moved (or the transfer resumed) at `now`.
        mutating func moved(at now: UInt64) { lastActivity = now }

        /// Whether the idle timeout has passed at `now`.
        func isIdle(at now: UInt64) -> Bool {
            now > lastActivity && now - lastActivity > idleTimeout
        }

        /// Nanoseconds from `now` until the idle timeout would pass.
        func nanosecondsUntilIdle(at now: UInt64) -> UInt64 {
            let deadline = lastActivity + idleTimeout
            return deadline > now ? deadline - now : 0
        }

        /// Whether a download progress event for `received` bytes is due at `now` (`afterWrite` when body bytes just
        /// arrived, `false` from the progress callback), noting it as reported when it is.
        mutating func downloadProgressDue(received: Int64, afterWrite: Bool, at now: UInt64) -> Bool {
            guard received > reportedDownload else { return false }
            let startsBurst = afterWrite && now &- lastDownloadWrite >= Self.progressInterval
            if afterWrite { lastDownloadWrite = now }
            guard startsBurst || now &- lastDownloadEmission >= Self.progressInterval else { return false }
            lastDownloadEmission = now
            reportedDownload = received
            return true
        }

        /// Whether the progress callback's turn to emit has come at `now`, noting it when it has.
        mutating func progressTurnDue(at now: UInt64) -> Bool {
            guard now &- lastProgressTurn >= Self.progressInterval else { return false }
            lastProgressTurn = now
            return true
        }

        /// Whether `uploaded` bytes (of `total`, 0 when unknown) are news worth an upload progress event, noting them
        /// when they are.
        mutating func uploadProgressDue(uploaded: Int64, total: Int64) -> Bool {
            guard uploaded > reportedUpload, uploaded > 0 || total > 0 else { return false }
            reportedUpload = uploaded
            return true
        }

        /// Which directions still owe their last count when the transfer ends, so observers always see the end.
        func finalProgressDue(uploaded: Int64, downloaded: Int64) -> (upload: Bool, download: Bool) {
            (uploaded > reportedUpload && uploaded > 0, downloaded > reportedDownload)
        }
    }
}
