// AssertImageSnapshot: the difference image. swift-snapshot-testing writes
// the failed snapshot to its artifacts folder (SNAPSHOT_ARTIFACTS, or the
// temporary directory, then a folder named after the test file) only after
// the Diffing has spoken, so a Diffing cannot know where it goes. Its diff
// tool, though, is called with the reference's and the failed image's paths
// once both are on disk. These overloads of assertSnapshot and verifySnapshot
// (more specific than the generic ones, so chosen for every strategy whose
// format is Image) run the generic ones with a diff tool that writes
// `NAME.diff.png` beside the failed `NAME.png`, names the three files, then
// hands over to the diff tool configured before. Reading that configured
// tool (a trait's, withSnapshotTesting's or the global default) takes the
// package's Internals SPI, the same the package's own InlineSnapshotTesting
// uses: the public API sets a configuration but cannot read one.

import Foundation
import Penumbra
@_spi(Internals) import SnapshotTesting

/// Asserts that a value matches its PNG reference on disk, and on failure writes a difference
/// image beside the failed snapshot.
///
/// The same as SnapshotTesting's `assertSnapshot(of:as:named:record:timeout:fileID:file:testName:line:column:)`
/// for strategies whose format is Penumbra's `Image`, chosen over it by the compiler. When the
/// snapshot does not match, SnapshotTesting writes it to its artifacts folder (the
/// `SNAPSHOT_ARTIFACTS` environment variable, or the temporary directory, then a folder named
/// after the test file); this writes `NAME.diff.png` beside that `NAME.png`: each channel's
/// absolute difference, amplified so that a difference of 1 shows (0 stays black, any other
/// difference d is 64 + d × 191 / 255), the alpha difference added to the colours, opaque, and
/// magenta where only one image has pixels. The failure message names the reference, the failed
/// snapshot and the difference image, and says how many pixels differ and by how much at most.
///
/// - Parameters:
///   - value: The value to snapshot.
///   - snapshotting: The strategy, such as `.image` or `.image(precision: 0.99, perPixelTolerance: 2)`.
///   - name: A name for the snapshot, instead of a counter, in its file name.
///   - record: The record mode; by default the configured one (`.missing`: record what has no reference).
///   - timeout: Seconds to wait for the snapshot.
///   - fileID: The file ID of the assertion.
///   - filePath: The test file: the references are in `__Snapshots__/FILE/` beside it.
///   - testName: The test's name, the start of the reference's file name.
///   - line: The line of the assertion.
///   - column: The column of the assertion.
public func assertSnapshot<Value>(
    of value: @autoclosure () throws -> Value,
    as snapshotting: Snapshotting<Value, Image>,
    named name: String? = nil,
    record: SnapshotTestingConfiguration.Record? = nil,
    timeout: TimeInterval = 5,
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    testName: String = #function,
    line: UInt = #line,
    column: UInt = #column
) {
    // A function, not a closure: a closure with `try` in it counts as throwing even when the
    // `try` is inside the autoclosure.
    func assert() {
        SnapshotTesting.assertSnapshot(
            of: try value(), as: snapshotting, named: name, record: record, timeout: timeout, fileID: fileID,
            file: filePath, testName: testName, line: line, column: column)
    }
    DifferenceImageTool.withDifferenceImage(assert)
}

/// Checks a value against its PNG reference on disk and returns the failure message (nil when it
/// matches), writing a difference image beside the failed snapshot as
/// ``assertSnapshot(of:as:named:record:timeout:fileID:file:testName:line:column:)`` does.
///
/// - Parameters:
///   - value: The value to snapshot.
///   - snapshotting: The strategy, such as `.image` or `.image(precision: 0.99, perPixelTolerance: 2)`.
///   - name: A name for the snapshot, instead of a counter, in its file name.
///   - record: The record mode; by default the configured one (`.missing`: record what has no reference).
///   - snapshotDirectory: The folder of the references, instead of `__Snapshots__/FILE/` beside the test file.
///   - timeout: Seconds to wait for the snapshot.
///   - fileID: The file ID of the check.
///   - filePath: The test file.
///   - testName: The test's name, the start of the reference's file name.
///   - line: The line of the check.
///   - column: The column of the check.
/// - Returns: The failure message, or nil when the value matches its reference.
public func verifySnapshot<Value>(
    of value: @autoclosure () throws -> Value,
    as snapshotting: Snapshotting<Value, Image>,
    named name: String? = nil,
    record: SnapshotTestingConfiguration.Record? = nil,
    snapshotDirectory: String? = nil,
    timeout: TimeInterval = 5,
    fileID: StaticString = #fileID,
    file filePath: StaticString = #file,
    testName: String = #function,
    line: UInt = #line,
    column: UInt = #column
) -> String? {
    func verify() -> String? {
        SnapshotTesting.verifySnapshot(
            of: try value(), as: snapshotting, named: name, record: record, snapshotDirectory: snapshotDirectory,
            timeout: timeout, fileID: fileID, file: filePath, testName: testName, line: line, column: column)
    }
    return DifferenceImageTool.withDifferenceImage(verify)
}

package enum DifferenceImageTool {
    /// Where the difference image of the failed snapshot at `failedPath` goes: `NAME.png` → `NAME.diff.png`.
    package static func path(besideFailed failedPath: String) -> String {
        URL(fileURLWithPath: failedPath).deletingPathExtension().appendingPathExtension("diff.png").path
    }

    /// Runs `body` with a diff tool that writes the difference image and then defers to the one
    /// configured now.
    package static func withDifferenceImage<R>(_ body: () -> R) -> R {
        let configured = SnapshotTestingConfiguration.current?.diffTool ?? SnapshotTesting._diffTool
        return withSnapshotTesting(diffTool: wrapping(configured), operation: body)
    }

    /// A diff tool that writes the difference image beside the failed snapshot, names the
    /// reference, the failed snapshot and the difference image, then says what `base` says.
    package static func wrapping(_ base: SnapshotTestingConfiguration.DiffTool) -> SnapshotTestingConfiguration.DiffTool {
        SnapshotTestingConfiguration.DiffTool { referencePath, failedPath in
            let then = base(currentFilePath: referencePath, failedFilePath: failedPath)
            var text = "Reference:  \"\(referencePath)\"\nFailed:     \"\(failedPath)\"\n"
            do {
                let diffPath = try write(referencePath: referencePath, failedPath: failedPath)
                text += "Difference: \"\(diffPath)\" (per-channel difference, amplified)\n"
            } catch {
                text += "Difference: not written (\(error))\n"
            }
            return text + "\n" + then
        }
    }

    /// Reads both PNGs, writes their difference image and returns its path.
    package static func write(referencePath: String, failedPath: String) throws -> String {
        let reference = ImageFile.bitmap(fromPNG: [UInt8](try Data(contentsOf: URL(fileURLWithPath: referencePath))))
        let failed = ImageFile.bitmap(fromPNG: [UInt8](try Data(contentsOf: URL(fileURLWithPath: failedPath))))
        let path = path(besideFailed: failedPath)
        try Data(ImageFile.png(ImageDifference.amplifiedDifference(reference, failed))).write(to: URL(fileURLWithPath: path))
        return path
    }
}
