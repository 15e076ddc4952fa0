extension MultipartFormData {
    /// The MIME type for a file name extension (case-insensitive), from a small built-in table;
    /// `application/octet-stream` for anything it does not list.
    ///
    /// ```swift
    /// MultipartFormData.mimeType(forPathExtension: "PNG")  // "image/png"
    /// MultipartFormData.mimeType(forPathExtension: "xyz")  // "application/octet-stream"
    /// ```
    public static func mimeType(forPathExtension pathExtension: String) -> String {
        mimeTypes[pathExtension.lowercased()] ?? "application/octet-stream"
    }

    private static let mimeTypes: [String: String] = [
        "png": "image/png",
        "jpg": "image/jpeg",
        "jpeg": "image/jpeg",
        "gif": "image/gif",
        "webp": "image/webp",
        "svg": "image/svg+xml",
        "heic": "image/heic",
        "txt": "text/plain",
        "html": "text/html",
        "htm": "text/html",
        "css": "text/css",
        "csv": "text/csv",
        "js": "text/javascript",
        "json": "application/json",
        "xml": "application/xml",
        "plist": "application/x-plist",
        "pdf": "application/pdf",
        "zip": "application/zip",
        "gz": "application/gzip",
        "tar": "application/x-tar",
        "cer": "application/x-x509-ca-cert",
        "der": "application/x-x509-ca-cert",
        "pem": "application/x-pem-file",
        "mp3": "audio/mpeg",
        "m4a": "audio/mp4",
        "wav": "audio/wav",
        "mp4": "video/mp4",
        "mov": "video/quicktime",
        "bin": "application/octet-stream",
    ]
}
