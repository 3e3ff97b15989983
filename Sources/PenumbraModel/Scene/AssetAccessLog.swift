// AssetAccessLog: which files of a scene's folder a decode looked at, and
// what each file was when it did, so that a cache keyed by the scene's text
// (the render server's) can tell whether the files behind a response have
// changed since. The scene's text alone cannot say: the same JSON naming
// `logo.png` renders differently once `logo.png` is replaced.
//
// A file's fingerprint is its real path and its stat: device, inode, size,
// and modification and status-change times to the nanosecond. That is what
// build systems and HTTP servers use for a file's version (nginx's ETag is
// size and mtime); hashing the content would read every file again for every
// cached request. A replaced file (new inode), an edited one (mtime and
// ctime) and a moved symbolic link (real path) all change it. The stat is
// taken when the source is resolved, just before the read, so a change
// during the read makes the recorded fingerprint older than the file, and the
// next request renders again: a change is never hidden, at worst it costs a
// render. A source looked for and not found is recorded as absent, because
// named images and frame patterns probe for files: a file appearing later
// changes the result as much as one changing.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// What a source path named in a scene's folder was at one moment: a file's identity and version,
/// or nothing.
package struct AssetFingerprint: Hashable, Sendable, CustomStringConvertible {
    /// The file's real path; nil when the source named no readable file.
    package var realPath: String?
    package var device: UInt64 = 0, inode: UInt64 = 0, size: Int64 = 0
    package var modified: Int64 = 0, changed: Int64 = 0

    /// Nothing there.
    package static let absent = AssetFingerprint(realPath: nil)

    /// The fingerprint of the file at `realPath` now (absent when it cannot be stat'ed).
    package static func of(realPath: String) -> AssetFingerprint {
        var info = stat()
        guard stat(realPath, &info) == 0 else { return .absent }
        return AssetFingerprint(
            realPath: realPath, device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int64(info.st_size),
            modified: Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec),
            changed: Int64(info.st_ctim.tv_sec) * 1_000_000_000 + Int64(info.st_ctim.tv_nsec))
    }

    /// What `source` names inside `baseDirectory` now, resolved as a scene's path is.
    package static func current(source: String, baseDirectory: String) -> AssetFingerprint {
        guard ImageSource.syntaxProblem(source) == nil,
              let realPath = try? ImageSource.resolveFile(source, baseDirectory: baseDirectory) else { return .absent }
        return .of(realPath: realPath)
    }

    package var description: String {
        guard let realPath else { return "absent" }
        return "\(realPath) dev=\(device) ino=\(inode) size=\(size) mtime=\(modified) ctime=\(changed)"
    }
}

/// The folder paths a decode resolved, each with its fingerprint at that moment; thread-safe.
/// Attach one to `ImageSources.accessLog` before decoding.
package final class AssetAccessLog: Sendable {
    /// One source as written in the scene, and what it named.
    package struct Entry: Hashable, Sendable {
        package var source: String
        package var fingerprint: AssetFingerprint
    }

    private let entries = Mutex<[String: AssetFingerprint]>([:])

    package init() {}

    /// Records `source`; the first record of a source is kept (the one its read followed).
    func record(_ source: String, _ fingerprint: AssetFingerprint) {
        entries.withLock { entries in
            if entries[source] == nil { entries[source] = fingerprint }
        }
    }

    /// Every source resolved so far, sorted by source.
    package var recorded: [Entry] {
        entries.withLock { $0.map { Entry(source: $0.key, fingerprint: $0.value) } }.sorted { $0.source < $1.source }
    }
}
