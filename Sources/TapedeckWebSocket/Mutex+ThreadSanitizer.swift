#if TAPEDECK_TSAN
import TapedeckCore

/// In ThreadSanitizer builds this module's `Mutex` is a lock the sanitizer sees (TapedeckCore's
/// `SanitizerVisibleMutex`); ordinary builds use `Synchronization.Mutex`.
typealias Mutex<Value> = SanitizerVisibleMutex<Value>
#endif
