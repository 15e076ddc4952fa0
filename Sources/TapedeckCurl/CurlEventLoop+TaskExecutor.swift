import CCurl
import Dispatch

/// The event loop runs the jobs of tasks that prefer it (`withTaskExecutorPreference`) on its own thread, between
/// libcurl turns. A sequential caller then needs no thread hop per request: its request is started and its
/// continuation resumed on the same thread, as in a single-threaded curl program.
extension CurlEventLoop: TaskExecutor {
    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        guard !send(.run(job)) else { return }
        // The loop has stopped: the task must still make progress, so its job runs on a global queue, still
        // attributed to this executor.
        let executor = asUnownedTaskExecutor()
        DispatchQueue.global().async { job.runSynchronously(on: executor) }
    }
}
