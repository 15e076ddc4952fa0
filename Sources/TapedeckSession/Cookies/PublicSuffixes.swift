/// The public suffixes a cookie's `Domain` attribute may not name (RFC 6265 §5.3 step 5): a domain cookie for one of
/// them would be sent to every site registered under it.
///
/// This is not the Public Suffix List (publicsuffix.org, about 10,000 rules with wildcards and exceptions). It is:
/// every single-label name (`com`, `org`, `uk`, `local`, …), and a compact built-in list of common multi-label
/// suffixes below — second-level registries of large country codes and popular hosting platforms where unrelated
/// users get sibling subdomains. A cookie for a public suffix missing from this list (say `gov.br`, or a hosting
/// platform not listed) is accepted; an application that needs the exact rules must filter `Domain` itself.
enum PublicSuffixes {
    /// `true` when `domain` (lower case, no leading dot) is a public suffix.
    static func contains(_ domain: Substring) -> Bool {
        guard domain.utf8.contains(UInt8(ascii: ".")) else { return true }
        return multiLabel.contains(String(domain))
    }

    /// Common multi-label public suffixes.
    static let multiLabel: Set<String> = [
        // United Kingdom
        "co.uk", "org.uk", "me.uk", "ltd.uk", "plc.uk", "net.uk", "sch.uk", "ac.uk", "gov.uk", "nhs.uk", "police.uk",
        // Australia, New Zealand
        "com.au", "net.au", "org.au", "edu.au", "gov.au", "asn.au", "id.au",
        "co.nz", "net.nz", "org.nz", "govt.nz", "ac.nz", "school.nz", "geek.nz",
        // Japan, Korea, China, Taiwan, Hong Kong, Singapore, India
        "co.jp", "ne.jp", "or.jp", "ac.jp", "go.jp", "gr.jp", "ed.jp", "lg.jp",
        "co.kr", "ne.kr", "or.kr", "go.kr", "ac.kr",
        "com.cn", "net.cn", "org.cn", "gov.cn", "edu.cn",
        "com.tw", "net.tw", "org.tw", "gov.tw", "edu.tw",
        "com.hk", "net.hk", "org.hk", "gov.hk", "edu.hk",
        "com.sg", "net.sg", "org.sg", "gov.sg", "edu.sg",
        "co.in", "net.in", "org.in", "gov.in", "ac.in", "firm.in", "gen.in", "ind.in",
        // Americas
        "com.br", "net.br", "org.br", "gov.br", "edu.br",
        "com.mx", "net.mx", "org.mx", "gob.mx", "edu.mx",
        "com.ar", "net.ar", "org.ar", "gob.ar", "edu.ar",
        "com.co", "net.co", "org.co", "gov.co", "edu.co",
        // Europe, Africa, Middle East
        "com.tr", "net.tr", "org.tr", "gov.tr", "edu.tr",
        "com.pl", "net.pl", "org.pl", "gov.pl",
        "co.za", "org.za", "gov.za", "ac.za", "web.za",
        "co.il", "org.il", "ac.il", "gov.il",
        "com.ua", "net.ua", "org.ua", "gov.ua",
        "com.es", "org.es", "gob.es", "edu.es",
        "co.it", "gov.it", "edu.it",
        "com.eg", "com.sa", "com.pk", "com.my", "com.ph", "com.vn", "co.th", "co.id", "or.id", "ac.id", "go.id",
        // Hosting platforms (sibling subdomains belong to unrelated users)
        "github.io", "githubusercontent.com", "gitlab.io", "pages.dev", "workers.dev", "vercel.app", "netlify.app",
        "herokuapp.com", "firebaseapp.com", "web.app", "appspot.com", "blogspot.com", "azurewebsites.net",
        "cloudfront.net", "s3.amazonaws.com", "elasticbeanstalk.com", "fly.dev", "onrender.com",
        "glitch.me", "repl.co", "surge.sh", "now.sh", "ngrok.io", "ngrok-free.app", "readthedocs.io", "bitbucket.io",
        "myshopify.com", "azurestaticapps.net", "cloudapp.net", "duckdns.org", "dyndns.org",
    ]
}
