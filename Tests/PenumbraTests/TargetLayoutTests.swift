// TargetLayoutTests: the package's targets keep the architecture's layers:
// PenumbraModel (what was drawn) depends on no other Penumbra target;
// PenumbraCore (how it is drawn: the planner, coverage, filter passes, the
// arithmetic) on the model alone; codecs, text and SVG need only the model;
// and the GPU renderer executes Core's plans with its own programs, so nothing
// it links may be a CPU kernel (the CPU renderer, its rasterizer, its blurs,
// its row samplers); Core's sources declare none of the rasterizer's types. Read from Package.swift's target declarations, dependencies
// followed to the end.
import Foundation
import XCTest

final class TargetLayoutTests: XCTestCase {
    /// Each target's direct dependencies on other targets of the package, from `.target(name:
    /// dependencies: [...])` declarations (products of other packages are left out).
    static func targetDependencies(_ manifest: String) -> [String: [String]] {
        var graph: [String: [String]] = [:]
        let declaration = try! NSRegularExpression(
            pattern: #"\.(?:target|executableTarget|testTarget|systemLibrary)\(\s*name:\s*"([^"]+)"(?:,\s*dependencies:\s*\[([^\]]*)\])?"#)
        let text = manifest as NSString
        for match in declaration.matches(in: manifest, range: NSRange(location: 0, length: text.length)) {
            let name = text.substring(with: match.range(at: 1))
            var dependencies: [String] = []
            if match.range(at: 2).location != NSNotFound {
                let list = text.substring(with: match.range(at: 2))
                // Plain names only: `.product(name: ..., package: ...)` entries are other packages'.
                let plain = try! NSRegularExpression(pattern: #"(?<![:\w])"([^"]+)""#)
                let listText = list as NSString
                for m in plain.matches(in: list, range: NSRange(location: 0, length: listText.length)) {
                    let before = listText.substring(to: m.range.location)
                    if before.hasSuffix("name: ") || before.hasSuffix("package: ") { continue }
                    dependencies.append(listText.substring(with: m.range(at: 1)))
                }
            }
            graph[name] = dependencies
        }
        return graph
    }

    /// Every target `target` depends on, directly or not.
    static func closure(of target: String, in graph: [String: [String]]) -> Set<String> {
        var seen = Set<String>(), stack = graph[target] ?? []
        while let next = stack.popLast() {
            guard seen.insert(next).inserted else { continue }
            stack += graph[next] ?? []
        }
        return seen
    }

    static let cpuKernels: Set<String> = ["PenumbraCPU", "CBlurKernels", "CSampleKernels"]

    /// The rasterizer's types: accumulation, masks, rows of spans, bands (PenumbraCPU/Coverage).
    static let rasterizerTypes = ["Accumulator", "AccumulationScratch", "CoverageMask", "CoverageRow", "BandedEdges", "ShapeBands"]

    /// The names of the structs, enums and classes `folder`'s Swift files declare.
    static func declaredTypes(under folder: URL) throws -> Set<String> {
        let declaration = try NSRegularExpression(pattern: #"(?m)^\s*(?:@\w+\s+)*(?:package\s+|public\s+|final\s+)*(?:struct|enum|class)\s+(\w+)"#)
        var names = Set<String>()
        let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
        while let url = files?.nextObject() as? URL {
            guard url.pathExtension == "swift" else { continue }
            let text = try String(contentsOf: url, encoding: .utf8)
            for m in declaration.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                names.insert((text as NSString).substring(with: m.range(at: 1)))
            }
        }
        return names
    }

    func testTheRasterizerIsTheCPURenderersAndTheCoreDeclaresNoneOfIt() throws {
        let sources = TestSupport.root.appendingPathComponent("Sources")
        let core = try Self.declaredTypes(under: sources.appendingPathComponent("PenumbraCore"))
        let cpu = try Self.declaredTypes(under: sources.appendingPathComponent("PenumbraCPU"))
        XCTAssertTrue(core.contains("CoverageEdges") && core.contains("DrawPlanner"), "Core's declarations were not read: \(core.sorted())")
        XCTAssertEqual(core.intersection(Self.rasterizerTypes).sorted(), [], "PenumbraCore declares rasterizer types")
        XCTAssertEqual(Set(Self.rasterizerTypes).subtracting(cpu).sorted(), [], "PenumbraCPU lacks rasterizer types")
    }

    func testTheGPURendererLinksNoCPUKernel() throws {
        let manifest = try String(contentsOf: TestSupport.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let graph = Self.targetDependencies(manifest)
        let gpu = Self.closure(of: "PenumbraGPU", in: graph)
        XCTAssertTrue(gpu.contains("PenumbraCore"), "the manifest was not read: \(gpu.sorted())")
        XCTAssertEqual(gpu.intersection(Self.cpuKernels).sorted(), [], "PenumbraGPU links CPU kernels")
        // The CPU renderer does link them: the check reads the layers it claims to.
        XCTAssertEqual(Self.closure(of: "PenumbraCPU", in: graph).intersection(Self.cpuKernels).sorted(),
                       ["CBlurKernels", "CSampleKernels"])
    }

    /// The penumbra targets (not the system libraries and C shims) `target` reaches.
    static func penumbraTargets(reachedFrom target: String, in graph: [String: [String]]) -> [String] {
        closure(of: target, in: graph).filter { $0.hasPrefix("Penumbra") }.sorted()
    }

    func testTheModelDependsOnNothingOfRenderingAndItsReadersOnlyOnTheModel() throws {
        let manifest = try String(contentsOf: TestSupport.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let graph = Self.targetDependencies(manifest)
        XCTAssertEqual(Self.penumbraTargets(reachedFrom: "PenumbraModel", in: graph), [])
        XCTAssertTrue(Self.closure(of: "PenumbraModel", in: graph).contains("CPNG"), "the manifest was not read")
        XCTAssertEqual(Self.penumbraTargets(reachedFrom: "PenumbraCore", in: graph), ["PenumbraModel"])
        for reader in ["PenumbraIO", "PenumbraText", "PenumbraSVG"] {
            XCTAssertEqual(Self.penumbraTargets(reachedFrom: reader, in: graph), ["PenumbraModel"], reader)
        }
        // The renderers execute Core's plans.
        XCTAssertEqual(Self.penumbraTargets(reachedFrom: "PenumbraGPU", in: graph), ["PenumbraCore", "PenumbraModel", "PenumbraShaders"])
        XCTAssertEqual(Self.penumbraTargets(reachedFrom: "PenumbraCPU", in: graph), ["PenumbraCore", "PenumbraModel"])
    }

    /// A model that reached the planner again would be reported.
    func testTheCheckReportsAModelDependingOnThePlanner() {
        let manifest = #"""
            .target(name: "PenumbraModel", dependencies: ["CPNG", "PenumbraText"], path: "Sources/PenumbraModel"),
            .target(name: "PenumbraText", dependencies: ["PenumbraCore"], path: "Sources/PenumbraText"),
            .target(name: "PenumbraCore", dependencies: ["PenumbraModel"], path: "Sources/PenumbraCore"),
            """#
        XCTAssertEqual(Self.penumbraTargets(reachedFrom: "PenumbraModel", in: Self.targetDependencies(manifest)),
                       ["PenumbraCore", "PenumbraModel", "PenumbraText"])
    }

    /// A Core that depended on the blur kernels again would be reported: the check finds a
    /// kernel reached through another target.
    func testTheCheckReportsAKernelReachedThroughCore() {
        let manifest = #"""
            .target(name: "CBlurKernels", path: "Sources/CBlurKernels"),
            .target(name: "PenumbraCore", dependencies: ["CPNG", "CBlurKernels"], path: "Sources/PenumbraCore"),
            .target(name: "PenumbraGPU", dependencies: ["PenumbraCore", .product(name: "X", package: "y"), "CEGL"], path: "x"),
            """#
        let gpu = Self.closure(of: "PenumbraGPU", in: Self.targetDependencies(manifest))
        XCTAssertEqual(gpu.intersection(Self.cpuKernels).sorted(), ["CBlurKernels"])
        XCTAssertFalse(gpu.contains("X") || gpu.contains("y"), "another package's product was read as a target")
    }
}
