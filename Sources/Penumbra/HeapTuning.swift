// HeapTuning: handing a large render's memory back to the system.
//
// glibc's malloc serves big blocks with mmap, but raises its mmap threshold
// (up to 32 MiB) each time such a block is freed, so after one large render
// the next canvases and layers come from the heap's arenas instead, and the
// arenas keep their pages when those are freed: a server's resident set
// stayed at 1.0-1.1 GB after a 100-megapixel render while the allocator's
// bytes in use read 4.5-8 MB. A fixed threshold keeps every block of 1 MiB
// or more (any surface but a small one) in mmap, returned the moment it is
// freed; a cap on arenas stops each worker thread from growing arenas of its
// own; and after a render whose canvas was large, or any job after which the
// heap holds much more than it uses, malloc_trim returns the free pages left
// inside the arenas. Set once per process, by the first
// RenderService (or by a caller, for the command line).
import CMallocStats

/// The process's allocator settings for rendering large surfaces, and trimming after them.
package enum HeapTuning {
    /// Blocks of this size or more are mapped on their own and unmapped when freed.
    package static let mmapThreshold = 1 << 20
    /// Renders whose canvas held at least this many bytes are followed by a trim of the heap.
    package static let trimAfterBytes = 4 << 20

    private static let configured: Void = { penumbra_heap_configure(mmapThreshold, 4) }()

    /// Applies the settings (once per process; later calls do nothing).
    package static func configure() { _ = configured }

    /// Returns free heap pages to the system after a job: when its canvas held `canvasBytes` or
    /// more than `trimAfterBytes`, or when the heap holds more than `trimSlackBytes` beyond what
    /// is in use (a job refused or cancelled part way leaves its small blocks' pages behind: a
    /// thousand dashed strokes' outlines, a blur's planes).
    package static func returnFreedMemory(afterCanvasOf canvasBytes: Int) {
        guard canvasBytes >= trimAfterBytes || penumbra_heap_system() > penumbra_heap_in_use() + trimSlackBytes else { return }
        _ = penumbra_heap_trim()
    }

    /// Free heap beyond which a job is followed by a trim, whatever it drew.
    package static let trimSlackBytes = 32 << 20
}
