import Foundation
import XCTest

/// Each subcommand's `--help` and the README's usage blocks name the same options: a flag the
/// tool has and the README does not show, or one the README shows and the tool lacks, fails.
/// A usage line's `[LIMITS]` stands for the README's one `LIMITS:` list of resource-limit flags.
extension CommandLineTests {
    /// The long options `penumbra SUB --help` lists (its OPTIONS section, names at line starts).
    func helpOptions(_ subcommand: String) throws -> Set<String> {
        let r = try run([subcommand, "--help"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let help = String(decoding: r.stdout, as: UTF8.self)
        guard let options = help.components(separatedBy: "OPTIONS:").last else { return [] }
        var names = Set<String>()
        for line in options.split(separator: "\n") {
            // "  -o, --output <output>   ..." or "  --max-ops <max-ops>  ...": the name is first.
            let words = line.split(separator: " ")
            guard let first = words.first, line.hasPrefix("  -") else { continue }
            let name = first.hasSuffix(",") && words.count > 1 ? words[1] : first
            if name.hasPrefix("--") { names.insert(String(name)) }
        }
        return names.subtracting(["--help", "--version"])
    }

    /// Per subcommand, the long options its README usage lines name, `[LIMITS]` expanded.
    func readmeOptions() throws -> [String: Set<String>] {
        let readme = try String(contentsOf: TestSupport.root.appendingPathComponent("README.md"), encoding: .utf8)
        let blocks = readme.components(separatedBy: "```").enumerated().filter { $0.offset % 2 == 1 }.map(\.element)
            .filter { $0.hasPrefix("\npenumbra ") }
        func flags(_ text: Substring) -> Set<String> {
            Set(text.split(whereSeparator: { " []|.,=".contains($0) }).filter { $0.hasPrefix("--") }.map(String.init))
        }
        var limits = Set<String>()
        var usage: [String: Set<String>] = [:]
        for block in blocks {
            var current: String?
            for line in block.split(separator: "\n") {
                if line.hasPrefix("penumbra ") {
                    current = String(line.split(separator: " ")[1])
                } else if line.hasPrefix("LIMITS:") {
                    current = "LIMITS"
                } else if !line.hasPrefix(" ") {
                    current = nil
                }
                guard let current else { continue }
                if current == "LIMITS" { limits.formUnion(flags(line)) } else {
                    usage[current, default: []].formUnion(flags(line))
                    if line.contains("[LIMITS]") { usage[current]!.insert("[LIMITS]") }
                }
            }
        }
        XCTAssertFalse(limits.isEmpty, "the README defines LIMITS: once")
        return usage.mapValues { $0.contains("[LIMITS]") ? $0.subtracting(["[LIMITS]"]).union(limits) : $0 }
    }

    func testEverySubcommandsHelpMatchesTheReadmeUsage() throws {
        let readme = try readmeOptions()
        for subcommand in ["render", "parity", "bench", "animate", "serve", "sign", "batch"] {
            let help = try helpOptions(subcommand)
            XCTAssertFalse(help.isEmpty, subcommand)
            // -o is --output: the README writes the short form.
            let shown = readme[subcommand, default: []].union(readme[subcommand, default: []].isEmpty ? [] : ["--output"])
            XCTAssertEqual(help.subtracting(shown).sorted(), [], "\(subcommand): options --help lists and the README's usage does not")
            XCTAssertEqual(shown.subtracting(help).subtracting(["--output"]).sorted(), [],
                           "\(subcommand): options the README's usage shows and --help does not")
        }
    }

    func testTheReadmeComparisonReportsADifference() throws {
        // The checker itself: a flag the README does not name is found.
        let help = try helpOptions("render")
        XCTAssertTrue(help.contains("--assets"))
        XCTAssertTrue(help.contains("--max-geometry-points"))
        let readme = try readmeOptions()
        XCTAssertEqual(help.subtracting(readme["render", default: []].subtracting(["--assets"]).union(["--output"])), ["--assets"])
    }

    /// The view limit is a flag of every command that decodes scenes, and the README's LIMITS list names it.
    func testMaxViewsIsInTheHelpAndTheReadme() throws {
        for subcommand in ["render", "animate", "parity", "bench", "batch", "serve"] {
            XCTAssertTrue(try helpOptions(subcommand).contains("--max-views"), "\(subcommand) --help lacks --max-views")
        }
        XCTAssertTrue(try readmeOptions()["render", default: []].contains("--max-views"))
    }
}
