// swift-tools-version:6.1
// Penumbra: Quartz 2D's drawing model for headless Linux servers, on a GPU
// through EGL + OpenGL ES 3, with a CPU reference rasterizer that defines the
// correct pixels. See README.md and ../shared/DESIGN.md for the map.
import PackageDescription

let package = Package(
    name: "Penumbra",
    products: [
        .library(name: "Penumbra", targets: ["Penumbra", "PenumbraModel", "PenumbraCore", "PenumbraCPU", "PenumbraIO", "PenumbraText"]),
        // SVG documents drawn into a GraphicsContext (docs/svg.md).
        .library(name: "PenumbraSVG", targets: ["PenumbraSVG"]),
        // UIKit's view layer over the drawing core: views, layers, image views, labels, visual effects, snapshots.
        .library(name: "PenumbraUI", targets: ["PenumbraUI"]),
        .executable(name: "penumbra", targets: ["penumbra"]),
        // Signed render URLs, for client packages that make them (swift-crypto and Foundation only).
        .library(name: "PenumbraSigning", targets: ["PenumbraSigning"]),
        // Image snapshot strategies for swift-snapshot-testing on Linux (a test dependency of clients).
        .library(name: "PenumbraSnapshotTesting", targets: ["PenumbraSnapshotTesting"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // The render server's stack (linked only by PenumbraServer, so by `penumbra serve`).
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        // NIOHTTP1's parser errors, told apart from the server's own (a client's malformed HTTP is 400).
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.81.0"),
        // `swift package generate-documentation`: the DocC catalogs in Sources/*/*.docc (a plugin only:
        // nothing of it is built into the library or its clients).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        // Linked only by PenumbraSnapshotTesting (swift-syntax comes with it, for its inline snapshots).
        .package(url: "https://github.com/pointfreeco/swift-snapshot-testing", from: "1.19.7"),
    ],
    targets: [
        // MARK: System libraries (a missing one names its Debian package)
        .systemLibrary(
            name: "CLibPNG", path: "Sources/CLibPNG", pkgConfig: "libpng",
            providers: [.apt(["libpng-dev", "zlib1g-dev"])]),
        .systemLibrary(
            name: "CEGL", path: "Sources/CEGL", pkgConfig: "egl",
            providers: [.apt(["libegl-dev", "libgles-dev", "libegl-mesa0", "libgl1-mesa-dri"])]),
        .systemLibrary(name: "CFreeType", path: "Sources/CFreeType", pkgConfig: "freetype2", providers: [.apt(["libfreetype-dev"])]),
        .systemLibrary(name: "CHarfBuzz", path: "Sources/CHarfBuzz", pkgConfig: "harfbuzz", providers: [.apt(["libharfbuzz-dev"])]),
        .systemLibrary(name: "CFontconfig", path: "Sources/CFontconfig", pkgConfig: "fontconfig", providers: [.apt(["libfontconfig-dev"])]),
        .systemLibrary(name: "CFriBidi", path: "Sources/CFriBidi", pkgConfig: "fribidi", providers: [.apt(["libfribidi-dev"])]),
        .systemLibrary(name: "CUnibreak", path: "Sources/CUnibreak", pkgConfig: "libunibreak", providers: [.apt(["libunibreak-dev"])]),

        .systemLibrary(name: "CLibJPEG", path: "Sources/CLibJPEG", pkgConfig: "libjpeg",
                       providers: [.apt(["libjpeg62-turbo-dev"])]),
        .systemLibrary(name: "CWebP", path: "Sources/CWebP", pkgConfig: "libwebpdemux",
                       providers: [.apt(["libwebp-dev"])]),
        .systemLibrary(name: "CGIF", path: "Sources/CGIF", providers: [.apt(["libgif-dev"])]),
        // The SVG reader's XML parser (PenumbraSVG); DTD loading, entities and network are kept off.
        .systemLibrary(name: "CLibXML2", path: "Sources/CLibXML2", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev"])]),
        .systemLibrary(name: "CLCMS2", path: "Sources/CLCMS2", pkgConfig: "lcms2", providers: [.apt(["liblcms2-dev"])]),

        // MARK: C shim that keeps libpng's setjmp/longjmp inside C
        // libdeflate compresses the PNG encoder's bands (Sources/CPNG/penumbra_png_write.c).
        .systemLibrary(name: "CLibDeflate", path: "Sources/CLibDeflate", pkgConfig: "libdeflate", providers: [.apt(["libdeflate-dev"])]),
        .target(name: "CPNG", dependencies: ["CLibPNG", "CLibDeflate"], path: "Sources/CPNG",
                linkerSettings: [.linkedLibrary("z"), .linkedLibrary("pthread")]),

        .target(name: "CJPEGShim", dependencies: ["CLibJPEG"], path: "Sources/CJPEGShim"),
        // glibc's heap accounting for the server's metrics (<malloc.h> is not in Swift's Glibc module).
        .target(name: "CMallocStats", path: "Sources/CMallocStats"),
        // The RGBA blur's row functions in AVX2, called only where the CPU runs them (RGBABlur.swift).
        .target(name: "CBlurKernels", path: "Sources/CBlurKernels"),
        // The image row sampler's kernel in AVX2, called only where the CPU runs it (ImageRowSampler.swift).
        .target(name: "CSampleKernels", path: "Sources/CSampleKernels"),

        // MARK: Swift
        // What was drawn: geometry, paths, stroking, the graphics context and its display list, images
        // and their PNG codec, filter graphs, scenes and their decoding, view trees.
        .target(name: "PenumbraModel", dependencies: ["CPNG"], path: "Sources/PenumbraModel"),
        // How it is drawn, for both renderers: the planner, its plans and the stream of steps, coverage
        // (the rasterizer, masks, edges, bands), filter passes and the fixed-point arithmetic.
        .target(name: "PenumbraCore", dependencies: ["PenumbraModel"], path: "Sources/PenumbraCore"),
        .target(name: "PenumbraIO", dependencies: ["PenumbraModel", "CJPEGShim", "CWebP", "CGIF", "CLCMS2"],
                path: "Sources/PenumbraIO"),
        .target(name: "PenumbraCPU", dependencies: ["PenumbraModel", "PenumbraCore", "CBlurKernels", "CSampleKernels"], path: "Sources/PenumbraCPU"),
        .target(
            name: "PenumbraShaders", path: "Shaders",
            resources: [
                .embedInCode("quad.vert.glsl"), .embedInCode("composite.comp.glsl"), .embedInCode("include/compositepixel.glsl"),
                .embedInCode("caster.frag.glsl"), .embedInCode("blur.frag.glsl"),
                .embedInCode("filter.frag.glsl"), .embedInCode("filterblur.frag.glsl"),
                .embedInCode("accumulate.comp.glsl"), .embedInCode("resolve.comp.glsl"), .embedInCode("clipproduct.comp.glsl"), .embedInCode("include/coveragecells.glsl"), .embedInCode("include/tilelist.glsl"),
                .embedInCode("include/colorfilter.glsl"), .embedInCode("include/filterblock.glsl"), .embedInCode("include/blurweights.glsl"),
                .embedInCode("include/header.glsl"), .embedInCode("include/mask.glsl"),
                .embedInCode("include/paint.glsl"), .embedInCode("include/blend.glsl"),
                .embedInCode("include/fixed.glsl"), .embedInCode("include/fixed64.glsl"),
            ]),
        .target(name: "PenumbraGPU", dependencies: ["PenumbraModel", "PenumbraCore", "PenumbraShaders", "CEGL"], path: "Sources/PenumbraGPU"),
        .target(
            name: "PenumbraText", dependencies: ["PenumbraModel", "CFreeType", "CHarfBuzz", "CFontconfig", "CFriBidi", "CUnibreak"],
            path: "Sources/PenumbraText"),
        .target(name: "Penumbra", dependencies: ["PenumbraModel", "PenumbraCore", "PenumbraCPU", "PenumbraGPU", "PenumbraIO", "PenumbraText", "PenumbraSVG",
                                               "CMallocStats"],
                path: "Sources/Penumbra"),
        // SVG in: documents drawn with the GraphicsContext's calls (docs/svg.md).
        .target(name: "PenumbraSVG", dependencies: ["PenumbraModel", "CLibXML2", "CLibDeflate"], path: "Sources/PenumbraSVG"),
        .target(name: "PenumbraUI", dependencies: ["Penumbra", "PenumbraText"], path: "Sources/PenumbraUI"),
        .target(name: "PenumbraSnapshotTesting",
                dependencies: ["Penumbra", "PenumbraUI", .product(name: "SnapshotTesting", package: "swift-snapshot-testing")],
                path: "Sources/PenumbraSnapshotTesting"),
        .target(name: "PenumbraRequests", dependencies: ["PenumbraModel", "PenumbraCore"], path: "Sources/PenumbraRequests"),
        .target(name: "PenumbraSigning", dependencies: [.product(name: "Crypto", package: "swift-crypto")],
                path: "Sources/PenumbraSigning"),
        .target(
            name: "PenumbraServer",
            dependencies: [
                "PenumbraModel", "Penumbra", "PenumbraRequests", "PenumbraSigning", "CMallocStats",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            path: "Sources/PenumbraServer"),
        .executableTarget(
            name: "penumbra",
            dependencies: ["Penumbra", "PenumbraSVG", "PenumbraServer", "PenumbraSigning", "CMallocStats", .product(name: "ArgumentParser", package: "swift-argument-parser"),
                           .product(name: "Logging", package: "swift-log")],
            path: "Tools/penumbra"),

        // The seeds' programs in Swift (`swift run penumbra-examples OUT`): an executable of this package
        // only, never built by the library's users, that sees only the public API.
        .executableTarget(name: "penumbra-examples", dependencies: ["Penumbra", "PenumbraText", "PenumbraUI"], path: "Examples/Swift",
                          packageAccess: false),

        // The view damage benchmark (`swift run -c release penumbra-view-bench`; BENCHMARKS.md).
        .executableTarget(name: "penumbra-view-bench", dependencies: ["PenumbraUI"], path: "Tools/bench/views"),

        // MARK: Tests
        .target(name: "PenumbraTestSupport", dependencies: ["PenumbraModel", "PenumbraCore"], path: "Tests/PenumbraTestSupport"),
        .testTarget(name: "PenumbraCoreTests", dependencies: ["PenumbraTestSupport", "PenumbraModel", "PenumbraCore"], path: "Tests/PenumbraCoreTests",
                    resources: [.copy("Fixtures")]),
        .testTarget(name: "PenumbraCPUTests", dependencies: ["PenumbraModel", "PenumbraTestSupport", "PenumbraCPU", "Penumbra"], path: "Tests/PenumbraCPUTests"),
        .testTarget(name: "PenumbraGPUTests", dependencies: ["PenumbraModel", "PenumbraTestSupport", "PenumbraGPU", "PenumbraCPU", "Penumbra", "PenumbraShaders", "CEGL",
                                                       "PenumbraSVG"],
                    path: "Tests/PenumbraGPUTests"),
        .testTarget(name: "PenumbraIOTests", dependencies: ["PenumbraModel", "Penumbra", "PenumbraIO", "PenumbraCore"], path: "Tests/PenumbraIOTests",
                    exclude: ["make_fixtures.py", "make_shrink_fixtures.py"], resources: [.copy("Fixtures")]),
        .testTarget(name: "PenumbraTests", dependencies: ["PenumbraModel", "Penumbra", "PenumbraCPU", "PenumbraGPU", "penumbra"], path: "Tests/PenumbraTests"),
        .testTarget(
            name: "PenumbraServerTests",
            dependencies: ["PenumbraServer", "PenumbraSigning", "Penumbra", .product(name: "HummingbirdTesting", package: "hummingbird")],
            path: "Tests/PenumbraServerTests"),
        .testTarget(name: "PenumbraUITests", dependencies: ["PenumbraModel", "PenumbraUI", "Penumbra", "PenumbraCPU", "PenumbraGPU", "PenumbraTestSupport",
                                                      "PenumbraSnapshotTesting", .product(name: "SnapshotTesting", package: "swift-snapshot-testing")],
                    path: "Tests/PenumbraUITests", exclude: ["__Snapshots__"]),
        .testTarget(name: "PenumbraSVGTests", dependencies: ["PenumbraModel", "PenumbraSVG", "Penumbra", "PenumbraCPU", "PenumbraTestSupport", "CLibDeflate"],
                    path: "Tests/PenumbraSVGTests"),
        .testTarget(name: "PenumbraTextTests", dependencies: ["PenumbraModel", "Penumbra", "PenumbraText", "PenumbraCPU", "PenumbraTestSupport"], path: "Tests/PenumbraTextTests"),
        .testTarget(name: "PenumbraSnapshotTestingTests",
                    dependencies: ["PenumbraSnapshotTesting", "Penumbra", .product(name: "SnapshotTesting", package: "swift-snapshot-testing")],
                    path: "Tests/PenumbraSnapshotTestingTests", exclude: ["__Snapshots__"]),
    ],
    swiftLanguageModes: [.v6]
)
