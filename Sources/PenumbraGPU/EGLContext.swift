// EGLContext: a headless OpenGL ES 3 context (DESIGN.md, "EGL platform choice").
//
// Platforms are tried in order: EGL_EXT_platform_device (hardware devices
// first; a device whose EGL_EXTENSIONS names EGL_MESA_device_software is
// software; devices whose eglInitialize fails are skipped), then
// EGL_MESA_platform_surfaceless, then eglGetDisplay(EGL_DEFAULT_DISPLAY).
// The context is ES 3.x, made current with no surface: everything renders
// into framebuffer objects. Extension entry points are looked up with
// eglGetProcAddress and cast to @convention(c) function types. A failure
// throws an error naming every platform tried and the EGL error codes.
// A context is owned by one thread: GL is single-threaded per context.
// EGL hands every caller the same display for a device, and eglTerminate
// ends every context on it, so displays are counted: the last context on a
// display terminates it (two renderers in one process stay independent).
import CEGL
import Foundation
import Synchronization
import PenumbraModel
import PenumbraCore

/// Why no headless EGL / GLES 3 context could be made: each attempt and its EGL error.
public struct EGLUnavailable: Error, Hashable, Sendable, CustomStringConvertible {
    /// One line per platform tried, e.g. "surfaceless: eglInitialize failed (0x3001 EGL_NOT_INITIALIZED)".
    public var attempts: [String]
    public var description: String { "no headless EGL/GLES 3 context: " + attempts.joined(separator: "; ") }
}

private typealias QueryDevices = @convention(c) (EGLint, UnsafeMutablePointer<EGLDeviceEXT?>?, UnsafeMutablePointer<EGLint>?) -> EGLBoolean
private typealias QueryDeviceString = @convention(c) (EGLDeviceEXT?, EGLint) -> UnsafePointer<CChar>?
private typealias GetPlatformDisplay = @convention(c) (EGLenum, UnsafeMutableRawPointer?, UnsafePointer<EGLint>?) -> EGLDisplay?

/// A current, surfaceless EGL context with OpenGL ES 3.
final class EGLHeadlessContext {
    let display: EGLDisplay
    let context: EGLContext
    /// Which platform gave the display ("device (hardware)", "surfaceless", "default").
    let platform: String

    /// Creates the context and makes it current on the calling thread.
    init() throws {
        var attempts: [String] = []
        let clientExtensions = EGLHeadlessContext.string(eglQueryString(nil, EGLint(EGL_EXTENSIONS)))
        let getPlatformDisplay: GetPlatformDisplay? = EGLHeadlessContext.proc("eglGetPlatformDisplayEXT")

        var candidates: [(String, () -> EGLDisplay?)] = []
        if clientExtensions.contains("EGL_EXT_platform_device"), let getPlatformDisplay,
           let query: QueryDevices = EGLHeadlessContext.proc("eglQueryDevicesEXT") {
            let queryString: QueryDeviceString? = EGLHeadlessContext.proc("eglQueryDeviceStringEXT")
            var count: EGLint = 0
            if query(0, nil, &count) == EGLBoolean(EGL_TRUE), count > 0 {
                var devices = [EGLDeviceEXT?](repeating: nil, count: Int(count))
                _ = query(count, &devices, &count)
                let described = devices.prefix(Int(count)).map { device -> (EGLDeviceEXT?, Bool) in
                    let ext = queryString.map { EGLHeadlessContext.string($0(device, EGLint(EGL_EXTENSIONS))) } ?? ""
                    return (device, ext.contains("EGL_MESA_device_software"))
                }
                // Hardware devices first.
                for (index, (device, software)) in described.enumerated().sorted(by: { !$0.element.1 && $1.element.1 }) {
                    candidates.append(("device \(index) (\(software ? "software" : "hardware"))", {
                        getPlatformDisplay(EGLenum(EGL_PLATFORM_DEVICE_EXT), device, nil)
                    }))
                }
            } else {
                attempts.append("device: eglQueryDevicesEXT found no device (\(EGLHeadlessContext.lastError()))")
            }
        } else {
            attempts.append("device: EGL_EXT_platform_device not offered")
        }
        if clientExtensions.contains("EGL_MESA_platform_surfaceless"), let getPlatformDisplay {
            candidates.append(("surfaceless", { getPlatformDisplay(EGLenum(EGL_PLATFORM_SURFACELESS_MESA), nil, nil) }))
        } else {
            attempts.append("surfaceless: EGL_MESA_platform_surfaceless not offered")
        }
        candidates.append(("default", { eglGetDisplay(nil) }))

        for (name, open) in candidates {
            guard let display = open() else {
                attempts.append("\(name): no display (\(EGLHeadlessContext.lastError()))")
                continue
            }
            guard DisplayUsers.retain(display) else {
                attempts.append("\(name): eglInitialize failed (\(EGLHeadlessContext.lastError()))")
                continue
            }
            do {
                context = try EGLHeadlessContext.makeContext(on: display)
                self.display = display
                platform = name
                return
            } catch let error as EGLStepFailure {
                attempts.append("\(name): \(error.message)")
                DisplayUsers.release(display)
            }
        }
        throw EGLUnavailable(attempts: attempts)
    }

    deinit {
        if eglGetCurrentContext() == context { eglMakeCurrent(display, nil, nil, nil) }
        eglDestroyContext(display, context)
        DisplayUsers.release(display)
    }

    /// How many contexts of this process use each initialised display.
    private enum DisplayUsers {
        /// Users per display, keyed by the display's address.
        private static let counts = Mutex<[UInt: Int]>([:])

        /// Initialises the display for one more user; false when eglInitialize fails.
        static func retain(_ display: EGLDisplay) -> Bool {
            counts.withLock { counts in
                var major: EGLint = 0, minor: EGLint = 0
                guard eglInitialize(display, &major, &minor) == EGLBoolean(EGL_TRUE) else { return false }
                counts[UInt(bitPattern: display), default: 0] += 1
                return true
            }
        }

        /// One user fewer; the last one terminates the display.
        static func release(_ display: EGLDisplay) {
            counts.withLock { counts in
                let key = UInt(bitPattern: display)
                let left = (counts[key] ?? 1) - 1
                counts[key] = left > 0 ? left : nil
                if left <= 0 { eglTerminate(display) }
            }
        }
    }

    /// Whether the context is current on the calling thread.
    var isCurrent: Bool { eglGetCurrentContext() == context }

    /// Makes this context current on the calling thread.
    func makeCurrent() throws {
        guard eglMakeCurrent(display, nil, nil, context) == EGLBoolean(EGL_TRUE) else {
            throw RenderError("eglMakeCurrent failed (\(EGLHeadlessContext.lastError()))")
        }
    }

    private struct EGLStepFailure: Error { var message: String }

    private static func makeContext(on display: EGLDisplay) throws -> EGLContext {
        guard eglBindAPI(EGLenum(EGL_OPENGL_ES_API)) == EGLBoolean(EGL_TRUE) else {
            throw EGLStepFailure(message: "eglBindAPI(EGL_OPENGL_ES_API) failed (\(lastError()))")
        }
        let displayExtensions = string(eglQueryString(display, EGLint(EGL_EXTENSIONS)))
        var config: EGLConfig? = nil
        if !displayExtensions.contains("EGL_KHR_no_config_context") {
            let attributes: [EGLint] = [EGLint(EGL_RENDERABLE_TYPE), EGLint(EGL_OPENGL_ES3_BIT), EGLint(EGL_NONE)]
            var count: EGLint = 0
            guard eglChooseConfig(display, attributes, &config, 1, &count) == EGLBoolean(EGL_TRUE), count > 0 else {
                throw EGLStepFailure(message: "no EGL config with EGL_OPENGL_ES3_BIT (\(lastError()))")
            }
        }
        for minor in [2, 1, 0] as [EGLint] {
            let attributes: [EGLint] = [EGLint(EGL_CONTEXT_MAJOR_VERSION), 3, EGLint(EGL_CONTEXT_MINOR_VERSION), minor,
                                        EGLint(EGL_NONE)]
            if let context = eglCreateContext(display, config, nil, attributes) {
                guard eglMakeCurrent(display, nil, nil, context) == EGLBoolean(EGL_TRUE) else {
                    let error = lastError()
                    eglDestroyContext(display, context)
                    throw EGLStepFailure(message: "surfaceless eglMakeCurrent failed (\(error))")
                }
                return context
            }
        }
        throw EGLStepFailure(message: "eglCreateContext(ES 3.x) failed (\(lastError()))")
    }

    private static func proc<T>(_ name: String) -> T? {
        guard let pointer = eglGetProcAddress(name) else { return nil }
        return unsafeBitCast(pointer, to: T.self)
    }

    static func string(_ pointer: UnsafePointer<CChar>?) -> String {
        pointer.map { String(cString: $0) } ?? ""
    }

    /// The last EGL error as hex with its name.
    static func lastError() -> String {
        let code = eglGetError()
        let hex = String(UInt32(bitPattern: code), radix: 16, uppercase: true)
        return "0x" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + " " + errorName(code)
    }

    static func errorName(_ code: EGLint) -> String {
        let names: [Int32: String] = [
            0x3000: "EGL_SUCCESS", 0x3001: "EGL_NOT_INITIALIZED", 0x3002: "EGL_BAD_ACCESS", 0x3003: "EGL_BAD_ALLOC",
            0x3004: "EGL_BAD_ATTRIBUTE", 0x3005: "EGL_BAD_CONFIG", 0x3006: "EGL_BAD_CONTEXT",
            0x3007: "EGL_BAD_CURRENT_SURFACE", 0x3008: "EGL_BAD_DISPLAY", 0x3009: "EGL_BAD_MATCH",
            0x300A: "EGL_BAD_NATIVE_PIXMAP", 0x300B: "EGL_BAD_NATIVE_WINDOW", 0x300C: "EGL_BAD_PARAMETER",
            0x300D: "EGL_BAD_SURFACE", 0x300E: "EGL_CONTEXT_LOST", 0x322B: "EGL_BAD_DEVICE_EXT",
        ]
        return names[code] ?? "unknown EGL error"
    }
}

/// EGL's per-thread state.
package enum EGLThreadState {
    /// Frees EGL's state for the calling thread: call it on a thread that made renderers, after
    /// they are gone, before the thread ends (a render server's worker).
    package static func release() { _ = eglReleaseThread() }
}
