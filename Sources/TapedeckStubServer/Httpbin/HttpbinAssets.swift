import Foundation

/// The fixed documents httpbin serves at `/xml`, `/json` and `/image/png`.
enum HttpbinAssets {
    static let xml = """
        <?xml version='1.0' encoding='us-ascii'?>
        <!--  A SAMPLE set of slides  -->
        <slideshow title="Sample Slide Show" date="Date of publication" author="Yours Truly">
            <!-- TITLE SLIDE -->
            <slide type="all">
                <title>Wake up to WonderWidgets!</title>
            </slide>
            <!-- OVERVIEW -->
            <slide type="all">
                <title>Overview</title>
                <item>Why <em>WonderWidgets</em> are great</item>
                <item/>
                <item>Who <em>buys</em> WonderWidgets</item>
            </slide>
        </slideshow>
        """

    static var json: [String: Any] { [
        "slideshow": [
            "author": "Yours Truly",
            "date": "date of publication",
            "slides": [
                ["title": "Wake up to WonderWidgets!", "type": "all"],
                ["items": ["Why <em>WonderWidgets</em> are great", "Who <em>buys</em> WonderWidgets"],
                 "title": "Overview", "type": "all"],
            ],
            "title": "Sample Slide Show",
        ] as [String: Any],
    ] }

    /// A valid 1×1 opaque red PNG.
    static let png = Data(base64Encoded:
        "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC")!
}
