import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// Runs `count` URLSession data tasks (the first argument, 0 or 3) to a loopback port nobody listens on and waits for
// each to fail; nothing is kept. LeakSanitizer should report nothing; with Swift 6.3.1's FoundationNetworking on
// Linux, each task leaks what libcurl's curl_url_set allocated for CFURLSessionCurlHostIsEqual (called from
// _EasyHandle.set(url:)), which never frees its CURLU handle: 3 tasks give 10 objects in direct leaks, each stack
// under CFURLSessionCurlHostIsEqual; no task gives none. So a
// leak report under CFURLSessionCurlHostIsEqual is the toolchain's, not the caller's.
let count = Int(CommandLine.arguments.dropFirst().first ?? "") ?? 0
let session = URLSession(configuration: .ephemeral)
nonisolated(unsafe) var failed = 0  // written by one task at a time, read after its semaphore
for _ in 0..<count {
    let done = DispatchSemaphore(value: 0)
    session.dataTask(with: URL(string: "http://127.0.0.1:9/")!) { _, _, error in
        if error != nil { failed += 1 }
        done.signal()
    }.resume()
    done.wait()
}
session.invalidateAndCancel()
print("\(failed) of \(count) tasks failed")
