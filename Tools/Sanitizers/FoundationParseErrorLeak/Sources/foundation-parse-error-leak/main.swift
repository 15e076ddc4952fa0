import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

// Parses a body three times and drops every result and error: with `PropertyListSerialization` (`plist`: a JSON
// document, which is no property list; `plist-valid`: a valid XML property list) or with `XMLParser` (`xml`: a
// document with a mismatched end tag; `xml-valid`: a well-formed one). Nothing is kept, so LeakSanitizer should
// report nothing. With Swift 6.3.1's swift-corelibs-foundation on Linux, each failed property-list parse leaks the
// CFError that CFPropertyListCreateWithData made (a direct leak whose stack has CFErrorCreate under
// CFPropertyListCreateWithData), each failed XML parse leaks the strings FoundationXML's libxml2 error handler made
// for it (_CFErrorCreateFromXMLInterface), and the valid documents leak nothing. So leak reports from those two
// functions are the toolchain's, not the caller's.
final class Delegate: NSObject, XMLParserDelegate {}

/// The number of failed parses of three (a function, so that no global keeps a `Data`: LSan misses those, see
/// EnumPayloadLeak).
func parseThreeTimes(mode: String) -> Int {
    let plist = Data(#"<?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><dict><key>a</key><integer>1</integer></dict></plist>"#.utf8)
    var failures = 0
    for _ in 0..<3 {
        switch mode {
        case "plist", "plist-valid":
            do {
                _ = try PropertyListSerialization.propertyList(from: mode == "plist" ? Data(#"{"a": 1}"#.utf8) : plist, format: nil)
            } catch {
                failures += 1
            }
        default:
            let parser = XMLParser(data: Data((mode == "xml" ? "<a><b></a>" : "<a><b/></a>").utf8))
            let delegate = Delegate()
            parser.delegate = delegate
            if !parser.parse() || parser.parserError != nil { failures += 1 }
            parser.delegate = nil
        }
    }
    return failures
}

print("\(parseThreeTimes(mode: CommandLine.arguments.dropFirst().first ?? "")) of 3 parses failed")
