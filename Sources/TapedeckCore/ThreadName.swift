#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The system-level name of the calling thread, as `top -H`, perf and `/proc/self/task/*/comm` show it (at most 15
/// bytes are kept). Foundation's `Thread.name` does not reach it on Linux. The curl event loop and the stub server's
/// acceptor name their threads with it.
package enum ThreadName {
    /// Names the calling thread; does nothing where the C library has no `pthread_setname_np`.
    package static func setCurrent(_ name: String) {
        #if canImport(Glibc)
        // Swift's Glibc module leaves out the GNU extensions, so the function is found by name once.
        _ = setName?(pthread_self(), String(name.utf8.prefix(15)) ?? "")
        #elseif canImport(Darwin)
        _ = pthread_setname_np(name)
        #endif
    }

    #if canImport(Glibc)
    private typealias SetName = @convention(c) (pthread_t, UnsafePointer<CChar>) -> Int32
    private static let setName: SetName? = dlsym(dlopen(nil, RTLD_NOW), "pthread_setname_np")
        .map { unsafeBitCast($0, to: SetName.self) }
    #endif
}
