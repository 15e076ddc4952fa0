import CCurl

/// The system-level name of the calling thread, as `top -H`, perf and `/proc/self/task/*/comm` show it (at most 15
/// bytes are kept). Foundation's `Thread.name` does not reach it on Linux. Shared with the stub server's threads.
package enum ThreadName {
    /// Names the calling thread.
    package static func setCurrent(_ name: String) {
        tdk_name_current_thread(name)
    }
}
