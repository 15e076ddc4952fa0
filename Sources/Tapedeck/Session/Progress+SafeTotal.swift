import Foundation

extension Progress {
    /// Sets `totalUnitCount`, stepping through "indeterminate" (-1) where swift-corelibs-foundation would trap:
    /// changing a positive total straight to 0 overflows in its fraction arithmetic (seen with Swift 6.3.1 on Linux).
    func setTotalUnitCount(_ total: Int64) {
        if total == 0 && totalUnitCount > 0 { totalUnitCount = -1 }
        totalUnitCount = total
    }
}
