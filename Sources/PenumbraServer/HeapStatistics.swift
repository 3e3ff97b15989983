// HeapStatistics: the C allocator's view of the process, beside the kernel's
// resident size. Resident memory alone cannot tell a leak from an allocator
// that keeps freed pages: when `inUse` stays flat while the resident size
// grows, the growth is fragmentation or arena caching, not memory a request
// kept. /metrics reports both, and the memory tests read `inUse`.
import CMallocStats

/// glibc's heap accounting (mallinfo2).
package enum HeapStatistics {
    /// Bytes handed out by malloc and not yet freed.
    package static var inUse: Int { Int(penumbra_heap_in_use()) }
    /// Bytes malloc holds from the system.
    package static var system: Int { Int(penumbra_heap_system()) }
}
