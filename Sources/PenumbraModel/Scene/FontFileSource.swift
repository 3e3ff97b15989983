// Font sources of the `fonts` map: a path confined to the scene's folder
// exactly as image paths are (ImageSource does the checking and reading), or
// a `data:font/ttf;base64,`, `data:font/otf;base64,`, `data:font/sfnt;base64,`
// or `data:font/collection;base64,` URI. Parsing the font is the text
// engine's job; this only gets the bytes. Files over 64 MiB are refused.
// Also here: the OpenType feature-tag registry that `features` is checked against.

enum FontFileSource {
    static let dataPrefixes = ["data:font/ttf;base64,", "data:font/otf;base64,", "data:font/sfnt;base64,",
                               "data:font/collection;base64,"]
    static let maxBytes = 64 << 20

    /// The bytes of a font source; failures are ImageSource.Failure messages.
    static func bytes(_ source: String, in sources: ImageSources) throws -> [UInt8] {
        if ImageSource.isDataURI(source) {
            let lower = String(source.prefix(40)).lowercased()
            guard let prefix = dataPrefixes.first(where: { lower.hasPrefix($0) }) else {
                let head = source.split(separator: ",", maxSplits: 1).first.map(String.init) ?? source
                throw ImageSource.Failure(message: "unsupported data URI \(SceneText.quote(head)): expected "
                    + dataPrefixes.map { SceneText.quote($0) }.joined(separator: ", "))
            }
            return try ImageSource.decodeBase64(source.utf8.dropFirst(prefix.utf8.count))
        }
        return try ImageSource.resolve(source, in: sources).bytes(maxBytes: maxBytes)
    }
}

/// The registered OpenType layout feature tags (the Microsoft feature registry).
package enum OpenTypeFeatures {
    static let registered: Set<String> = {
        var tags: Set<String> = [
            "aalt", "abvf", "abvm", "abvs", "afrc", "akhn", "apkn", "blwf", "blwm", "blws", "calt", "case", "ccmp", "cfar",
            "chws", "cjct", "clig", "cpct", "cpsp", "cswh", "curs", "c2pc", "c2sc", "dist", "dlig", "dnom", "dtls", "expt",
            "falt", "fin2", "fin3", "fina", "flac", "frac", "fwid", "half", "haln", "halt", "hist", "hkna", "hlig", "hngl",
            "hojo", "hwid", "init", "isol", "ital", "jalt", "jp78", "jp83", "jp90", "jp04", "kern", "lfbd", "liga", "ljmo",
            "lnum", "locl", "ltra", "ltrm", "mark", "med2", "medi", "mgrk", "mkmk", "mset", "nalt", "nlck", "nukt", "numr",
            "onum", "opbd", "ordn", "ornm", "palt", "pcap", "pkna", "pnum", "pref", "pres", "pstf", "psts", "pwid", "qwid",
            "rand", "rclt", "rkrf", "rlig", "rphf", "rtbd", "rtla", "rtlm", "ruby", "rvrn", "salt", "sinf", "size", "smcp",
            "smpl", "ssty", "stch", "subs", "sups", "swsh", "titl", "tjmo", "tnam", "tnum", "trad", "twid", "unic", "valt",
            "vapk", "vatu", "vchw", "vert", "vhal", "vjmo", "vkna", "vkrt", "vpal", "vrt2", "vrtr", "zero",
        ]
        for i in 1...20 { tags.insert("ss" + (i < 10 ? "0" : "") + String(i)) }
        for i in 1...99 { tags.insert("cv" + (i < 10 ? "0" : "") + String(i)) }
        return tags
    }()

    /// True for a registered tag.
    package static func isRegistered(_ tag: String) -> Bool { registered.contains(tag) }
}
