// swift-tools-version:6.1
// Penumbra: Quartz 2D's drawing model for headless Linux servers, on a GPU
// through EGL + OpenGL ES 3, with a CPU reference rasterizer that defines the
// correct pixels. See README.md and ../shared/DESIGN.md for the map.
import PackageDescription

let package = Package(
    name: "Penumbra",
    products: [
        .library(name: "Penumbra", targets: ["Penumbra", "PenumbraCore", "PenumbraCPU", "PenumbraText"]),
        .executable(name: "penumbra", targets: ["penumbra"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
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

        // MARK: C shim that keeps libpng's setjmp/longjmp inside C
        .target(name: "CPNG", dependencies: ["CLibPNG"], path: "Sources/CPNG", linkerSettings: [.linkedLibrary("z"), .linkedLibrary("pthread")]),

        // MARK: Swift
        .target(name: "PenumbraCore", dependencies: ["CPNG"], path: "Sources/PenumbraCore"),
        .target(name: "PenumbraCPU", dependencies: ["PenumbraCore"], path: "Sources/PenumbraCPU"),
        .target(
            name: "PenumbraShaders", path: "Shaders",
            resources: [
                .embedInCode("quad.vert.glsl"), .embedInCode("composite.frag.glsl"),
                .embedInCode("caster.frag.glsl"), .embedInCode("blur.frag.glsl"),
                .embedInCode("include/header.glsl"), .embedInCode("include/mask.glsl"),
                .embedInCode("include/paint.glsl"), .embedInCode("include/blend.glsl"),
            ]),
        .target(name: "PenumbraGPU", dependencies: ["PenumbraCore", "PenumbraShaders", "CEGL"], path: "Sources/PenumbraGPU"),
        .target(
            name: "PenumbraText", dependencies: ["PenumbraCore", "CFreeType", "CHarfBuzz", "CFontconfig", "CFriBidi", "CUnibreak"],
            path: "Sources/PenumbraText", swiftSettings: [.swiftLanguageMode(.v6)]),
        .target(name: "Penumbra", dependencies: ["PenumbraCore", "PenumbraCPU", "PenumbraGPU", "PenumbraText"], path: "Sources/Penumbra"),
        .executableTarget(
            name: "penumbra",
            dependencies: ["Penumbra", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            path: "Tools/penumbra"),

        // MARK: Tests
        .target(name: "PenumbraTestSupport", dependencies: ["PenumbraCore"], path: "Tests/PenumbraTestSupport"),
        .testTarget(name: "PenumbraCoreTests", dependencies: ["PenumbraTestSupport", "PenumbraCore"], path: "Tests/PenumbraCoreTests",
                    resources: [.copy("Fixtures")]),
        .testTarget(name: "PenumbraCPUTests", dependencies: ["PenumbraTestSupport", "PenumbraCPU", "Penumbra"], path: "Tests/PenumbraCPUTests"),
        .testTarget(name: "PenumbraGPUTests", dependencies: ["PenumbraTestSupport", "PenumbraGPU", "PenumbraCPU", "Penumbra", "CEGL"],
                    path: "Tests/PenumbraGPUTests"),
        .testTarget(name: "PenumbraTests", dependencies: ["Penumbra", "PenumbraCPU", "PenumbraGPU", "penumbra"], path: "Tests/PenumbraTests"),
        .testTarget(name: "PenumbraTextTests", dependencies: ["Penumbra", "PenumbraText", "PenumbraCPU", "PenumbraTestSupport"], path: "Tests/PenumbraTextTests",
                    swiftSettings: [.swiftLanguageMode(.v6)]),
    ],
    swiftLanguageModes: [.v5]
)
