// The report of `penumbra parity --report DIR`: per scene NAME-cpu.png,
// NAME-gpu.png and NAME-diff.png, and an index.html a person opens in a
// browser. The page is self-contained (inline CSS, no scripts, no external
// resources): a summary table, then each scene's three images side by side,
// scaled to fit and linked to the full-size files. Every string that reaches
// the HTML is escaped; file names are reduced to [A-Za-z0-9._-] so that
// they are also safe in URLs. Every file is written atomically (OutputFile).
import Foundation
import Penumbra

/// Writes the report files into one folder.
struct ParityReport {
    let directory: String

    /// Creates the folder and its parents; failure ends the run with exit status 4.
    init(directory: String) throws {
        self.directory = directory
        do { try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true) } catch {
            throw ToolError(.failure, "\(directory): cannot create the report folder (\(error.localizedDescription))")
        }
    }

    private func path(_ file: String) -> String { (directory as NSString).appendingPathComponent(file) }

    /// Writes the scene's CPU and GPU renderings and, when their sizes match, the amplified difference.
    func writeImages(name: String, cpu: Bitmap, gpu: Bitmap) throws {
        var files = [("\(name)-cpu.png", cpu), ("\(name)-gpu.png", gpu)]
        if cpu.width == gpu.width, cpu.height == gpu.height {
            files.append(("\(name)-diff.png", ImageDifference.amplifiedDifference(cpu, gpu)))
        }
        for (file, bitmap) in files {
            let png: [UInt8]
            do { png = try PNGCodec.encode(bitmap) } catch {
                throw ToolError(.failure, "\(path(file)): PNG encoding failed: \(error)")
            }
            try OutputFile.write(png, to: path(file))
        }
    }

    /// Writes index.html for the outcomes, in their order.
    func writeIndex(_ outcomes: [ParityOutcome], cpuRenderer: String, gpuRenderer: String, date: Date) throws {
        let html = ParityPage(outcomes: outcomes, cpuRenderer: cpuRenderer, gpuRenderer: gpuRenderer, date: date).html
        try OutputFile.write(Array(html.utf8), to: path("index.html"))
    }
}

/// Unique report names derived from scene file names: `scenes/oval.json` -> `oval`, a second
/// `oval` -> `oval-2`. Characters other than letters, digits, `.`, `_` and `-` become `_`.
struct ReportNames {
    private var used: Set<String> = []

    mutating func unique(for scenePath: String) -> String {
        var base = scenePath == "-" ? "stdin" : ((scenePath as NSString).lastPathComponent as NSString).deletingPathExtension
        base = String(base.unicodeScalars.map { scalar -> Character in
            let ok = scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || "._-".unicodeScalars.contains(scalar))
            return ok ? Character(scalar) : "_"
        })
        if base.isEmpty || base.hasPrefix(".") { base = "_" + base } // no hidden or empty names
        var name = base, n = 2
        while used.contains(name.lowercased()) { name = "\(base)-\(n)"; n += 1 }
        used.insert(name.lowercased()) // case-insensitive file systems too
        return name
    }
}

/// The HTML of index.html.
struct ParityPage {
    var outcomes: [ParityOutcome]
    var cpuRenderer: String
    var gpuRenderer: String
    var date: Date
    /// Images narrower than half this many pixels are shown enlarged.
    static let smallImageWidth = 240

    /// Escapes text for HTML element content and quoted attribute values.
    static func escape(_ text: String) -> String {
        var out = ""
        for c in text {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(c)
            }
        }
        return out
    }

    private static let style = """
        body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; margin: 24px 32px; color: #1d1d1f; background: #fff; }
        h1 { font-size: 22px; margin: 0 0 6px; }
        h2 { font-size: 17px; margin: 0 0 6px; }
        .meta, .legend, .path { color: #555; margin: 2px 0; }
        code { font: 12px ui-monospace, "SF Mono", Menlo, Consolas, monospace; }
        table { border-collapse: collapse; margin: 16px 0 8px; }
        th, td { padding: 5px 12px; border-bottom: 1px solid #e2e2e2; text-align: left; white-space: nowrap; }
        th { background: #f5f5f7; font-weight: 600; }
        td.num { text-align: right; font-variant-numeric: tabular-nums; }
        .verdict { font-weight: 700; border-radius: 4px; padding: 1px 7px; }
        .pass { color: #0b6b2e; background: #d9f4e1; }
        .fail { color: #a3161a; background: #fde0df; }
        .error { color: #7a4a00; background: #fff0c2; }
        .totals { font-weight: 600; margin: 12px 0 0; }
        section { border-top: 1px solid #e2e2e2; margin-top: 28px; padding-top: 14px; }
        .problems { color: #a3161a; margin: 4px 0; }
        .images { display: flex; gap: 16px; align-items: flex-start; margin-top: 10px; }
        figure { flex: 1 1 0; min-width: 0; margin: 0; }
        figure img { display: block; max-width: 100%; height: auto; border: 1px solid #ccc;
          background-color: #fff;
          background-image: linear-gradient(45deg, #ddd 25%, transparent 25%, transparent 75%, #ddd 75%),
            linear-gradient(45deg, #ddd 25%, transparent 25%, transparent 75%, #ddd 75%);
          background-size: 16px 16px; background-position: 0 0, 8px 8px; }
        figure img.diff { image-rendering: pixelated; background: #000; }
        figure img.zoomed { image-rendering: pixelated; }
        figcaption { color: #555; font-size: 12px; margin-top: 4px; }
        """

    var html: String {
        let e = Self.escape
        let stamp = ISO8601DateFormatter().string(from: date)
        var passed = 0, failed = 0, errors = 0
        var rows: [String] = [], sections: [String] = []
        for o in outcomes {
            let anchor = "scene-" + o.name
            switch o.result {
            case .compared(let v):
                if v.passes { passed += 1 } else { failed += 1 }
                let verdict = v.passes ? "<span class=\"verdict pass\">PASS</span>" : "<span class=\"verdict fail\">FAIL</span>"
                rows.append("<tr><td><a href=\"#\(e(anchor))\">\(e(o.name))</a></td><td class=\"num\">\(v.referenceWidth)×\(v.referenceHeight)</td>"
                    + "<td class=\"num\">\(v.difference == nil ? "–" : String(v.maxChannelDifference))</td>"
                    + "<td class=\"num\">\(v.difference == nil ? "–" : String(format: "%.4f%%", v.percentDiffering))</td>"
                    + "<td class=\"num\">\(v.difference == nil ? "–" : String(v.pixelsDiffering))</td><td>\(verdict)</td></tr>")
                sections.append(section(o, anchor: anchor, verdict: verdict, verdictDetail: v))
            case .error(_, let message):
                errors += 1
                let verdict = "<span class=\"verdict error\">ERROR</span>"
                rows.append("<tr><td><a href=\"#\(e(anchor))\">\(e(o.name))</a></td><td class=\"num\">–</td><td class=\"num\">–</td>"
                    + "<td class=\"num\">–</td><td class=\"num\">–</td><td>\(verdict)</td></tr>")
                sections.append("<section id=\"\(e(anchor))\"><h2>\(e(o.name)) \(verdict)</h2>"
                    + "<p class=\"path\"><code>\(e(o.path))</code></p><p class=\"problems\">\(e(message))</p></section>")
            }
        }
        return """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>Penumbra parity report</title>
            <style>
            \(Self.style)
            </style>
            </head>
            <body>
            <h1>Penumbra parity report</h1>
            <p class="meta">Generated \(e(stamp)). CPU renderer (reference): <code>\(e(cpuRenderer))</code>. \
            GPU renderer: <code>\(e(gpuRenderer))</code>.</p>
            <p class="meta">Parity contract: byte identity (every channel value of every pixel equal).</p>
            <p class="legend">Difference images show each channel’s absolute difference amplified \
            (a difference of 1 is dark grey, 64 of 255, and 255 full brightness; an alpha difference shows in \
            every colour); black means identical. Click an image for its full size.</p>
            <p class="totals">\(passed) passed, \(failed) failed\(errors > 0 ? ", \(errors) could not be checked" : "").</p>
            <table>
            <thead><tr><th>Scene</th><th>Size (px)</th><th>Max difference</th><th>% values differing</th>\
            <th>Pixels differing</th><th>Result</th></tr></thead>
            <tbody>
            \(rows.joined(separator: "\n"))
            </tbody>
            </table>
            \(sections.joined(separator: "\n"))
            </body>
            </html>

            """
    }

    /// The figures of a verdict in words.
    private func figures(_ v: ParityVerdict) -> String {
        guard v.difference != nil else { return "sizes differ" }
        return "\(v.referenceWidth)×\(v.referenceHeight) px, max difference \(v.maxChannelDifference), "
            + String(format: "%.4f%% of values differ, ", v.percentDiffering)
            + "\(v.pixelsDiffering) pixels differ"
    }

    /// One compared scene: its figures, why it fails, and the three images side by side.
    private func section(_ o: ParityOutcome, anchor: String, verdict: String, verdictDetail v: ParityVerdict) -> String {
        let e = Self.escape
        // Small images are enlarged by a whole factor (pixelated) to about 240 px, so they can be seen.
        let zoom = max(1, Self.smallImageWidth / max(1, v.referenceWidth))
        func figure(_ suffix: String, _ caption: String, diff: Bool = false) -> String {
            let file = e("\(o.name)-\(suffix).png")
            let classes = (diff ? ["diff"] : []) + (zoom > 1 ? ["zoomed"] : [])
            let attributes = (classes.isEmpty ? "" : " class=\"\(classes.joined(separator: " "))\"")
                + (zoom > 1 ? " style=\"width: \(v.referenceWidth * zoom)px\"" : "")
            let shown = caption + (zoom > 1 ? ", shown ×\(zoom)" : "")
            return "<figure><a href=\"\(file)\"><img src=\"\(file)\" alt=\"\(e(caption))\"\(attributes)></a>"
                + "<figcaption>\(e(shown))</figcaption></figure>"
        }
        let images = v.difference == nil
            ? figure("cpu", "CPU (reference), \(v.referenceWidth)×\(v.referenceHeight)")
                + figure("gpu", "GPU, \(v.candidateWidth)×\(v.candidateHeight)")
                + "<figure><figcaption>No difference image: the sizes differ.</figcaption></figure>"
            : figure("cpu", "CPU (reference)") + figure("gpu", "GPU")
                + figure("diff", "Difference, amplified", diff: true)
        let problems = v.problems.map { "<p class=\"problems\">\(e($0))</p>" }.joined()
        return "<section id=\"\(e(anchor))\"><h2>\(e(o.name)) \(verdict)</h2>"
            + "<p class=\"path\"><code>\(e(o.path))</code> · \(e(figures(v)))</p>\(problems)"
            + "<div class=\"images\">\(images)</div></section>"
    }
}
