// GPUCoverage: the coverage of a shape computed on the GPU from its edges,
// byte-identical to the CPU's masks.
//
// Choice. The exact arithmetic (docs/ARITHMETIC.md, "Coverage") is a cell
// rasterizer: each edge adds integer cover and area to the cells it
// crosses, and a prefix sum along each row gives the coverage. Integer sums
// do not depend on their order, so the GPU can accumulate the cells with
// atomicAdd in any order and still match the CPU bit for bit; that is what
// OpenGL ES 3.1 compute gives (shader storage buffers, integer atomics,
// image stores), on every conformant driver. Fragment-based alternatives
// were set aside: MSAA or stencil-then-cover coverage differs between
// drivers and from the exact area, and sparse strips (vello's hybrid
// scheme) would still need the CPU to walk every edge pixel by pixel,
// which is the rasterizer's cost itself. So the CPU does only what is cheap
// and order-free per edge: flattening and stroking into contours, clipping
// each edge to the op's region in Double and rounding its ends to 24.8
// fixed point (CoverageEdges, the same code the CPU rasterizer runs). The
// planner hands the GPU renderer these edges instead of masks
// (CoverageForm.edges), so no mask is rasterized on the CPU for it.
//
// Per batch of ops (GPUFrame takes the plain draws that follow one another
// in the stream ahead of their turn, as many as fit: `fits`): their edges
// are uploaded into a storage buffer as the planner packed them (chains of
// 24-bit points, about 6 bytes an edge: CoverageEdges), with a descriptor
// per op (where its points, cells, atlas rows and tile
// list lie). accumulate.comp runs one invocation per edge, adding to Int32
// cells (per op, its region's rows, width + 2 cells each) that are zero on
// entry; resolve.comp runs one work group per row of every op (a parallel
// prefix sum over runs of cells, exact because wrapping integer addition is
// associative), writes U8 coverage into an R32UI atlas (the ops' masks
// stacked) and clears the cells it read, so they are zero again. Two
// dispatches thus serve a whole batch; each op keeps its own composite, in
// stream order. The masks hold four pixels per R32UI texel, a byte each
// (mask.glsl's gpuMaskValue reads them). For an op's own coverage the
// resolve pass also lists the 16 x 16 tiles where it is not 0 (tilelist.glsl), and the composite runs
// over those tiles only, as an indirect dispatch: a thin ring's composite
// shades its ring, not its bounding box, and the CPU never learns where the
// coverage lies. A single region taller than the cell buffer holds is done
// in bands of rows (each band accumulates only its rows). Regions wider
// than 16384 pixels are beyond the 32-bit products of accumulate.comp and
// are reported unsupported, as are more edges than one dispatch can hold.
import CEGL
import PenumbraModel
import PenumbraCore

/// A mask of GPU coverage: its texture (placed on the device grid by its rect), the row of the
/// texture where its row 0 lies (a batch's atlas), and where its tile list lies.
struct GPUCoverageMask {
    let texture: GLTexture
    let atlasRow: Int
    /// The list's header word (its indirect dispatch is at 4 x header bytes), its first tile's
    /// word, and the tiles per row of its grid.
    let tileList: (header: Int, firstTile: Int, tilesPerRow: Int)?
}

/// The two compute passes of GPU coverage (their shader files' names).
enum CoveragePass: String {
    case accumulate, resolve
}

/// The storage buffers of GPU coverage, kept for the renderer's life.
final class GPUCoverage {
    /// The widest region accumulate.comp's 32-bit products allow.
    static let maxWidth = 16384
    /// The cell buffer never grows past this many cells (taller regions go in bands).
    static let maxCells = 1 << 24
    private let counters: GPUCounters
    private var edgeBuffer: GLuint = 0
    private var cellBuffer: GLuint = 0
    private var cellCapacity = 0
    private var tileFlagBuffer: GLuint = 0
    /// The occupied-tile list and its dispatch header (composite.comp's indirect dispatch).
    private(set) var tileListBuffer: GLuint = 0
    private var tileCapacity = 0, listCapacity = 0
    /// The batch's op descriptors (coveragecells.glsl).
    private var opBuffer: GLuint = 0
    /// The stamp of the last op that listed tiles (tile flags hold stamps, never cleared).
    private var tileStamp: Int32 = 0
    /// The side of a listed tile, in pixels (tilelist.glsl, composite.comp's work group).
    static let tileSize = 16
    /// accumulate.comp's work group: one edge per invocation.
    static let accumulateGroup = 64
    /// resolve.comp's work group: the invocations that share one row's running sums.
    static let resolveGroup = 128
    /// The most points one dispatch covers (`accumulateGroup` per work group).
    let maxEdges: Int
    /// The most work groups along x of one dispatch (resolve.comp's rows).
    let maxGroups: Int
    /// The most cells the buffer may hold: the smaller of maxCells and the context's largest
    /// storage block.
    var cellLimit: Int

    init(counters: GPUCounters) {
        self.counters = counters
        var groups: GLint = 0, blockBytes: GLint = 0
        glGetIntegeri_v(glEnum(GL_MAX_COMPUTE_WORK_GROUP_COUNT), 0, &groups)
        glGetIntegerv(glEnum(GL_MAX_SHADER_STORAGE_BLOCK_SIZE), &blockBytes)
        maxGroups = Int(max(0, groups))
        maxEdges = maxGroups * GPUCoverage.accumulateGroup
        cellLimit = min(GPUCoverage.maxCells, Int(max(0, blockBytes)) / 4)
        var names: [GLuint] = [0, 0, 0, 0, 0]
        glGenBuffers(5, &names)
        edgeBuffer = names[0]; cellBuffer = names[1]; tileFlagBuffer = names[2]; tileListBuffer = names[3]; opBuffer = names[4]
        // The composite program declares the tile buffers even when it dispatches densely: give
        // them storage and bind them from the start.
        startTileLists(ops: 1, tiles: 1)
    }

    /// Deletes the buffers (the context must be current).
    func delete() {
        var names = [edgeBuffer, cellBuffer, tileFlagBuffer, tileListBuffer, opBuffer]
        glDeleteBuffers(5, &names)
        cellCapacity = 0; tileCapacity = 0; listCapacity = 0
    }

    /// Tiles per row of the tile grid over `region`.
    static func tilesPerRow(_ region: PixelRect) -> Int { (region.width + tileSize - 1) / tileSize }

    /// Throws `BackendUnavailable` when the edges are beyond what these passes can compute.
    func check(_ edges: CoverageEdges) throws {
        guard edges.region.width <= GPUCoverage.maxWidth else {
            throw BackendUnavailable("a coverage region \(edges.region.width) pixels wide exceeds the GPU renderer's \(GPUCoverage.maxWidth)")
        }
        guard edges.points <= maxEdges, edges.region.height <= maxGroups else {
            throw BackendUnavailable("a shape of \(edges.count) edges over \(edges.region.height) rows exceeds the GPU's "
                                     + "dispatch limits (\(maxEdges) points, \(maxGroups) rows)")
        }
        guard edges.region.width + 2 <= cellLimit else {
            throw BackendUnavailable("a coverage row of \(edges.region.width) pixels exceeds the GPU's storage block size")
        }
    }

    /// Whether `batch` can be computed in one accumulate and one resolve pass: its cells fit the
    /// buffer, its atlas (the regions stacked) fits a texture, its points and rows a dispatch.
    func fits(_ batch: [CoverageEdges], maxTextureSize: Int) -> Bool {
        var cells = 0, rows = 0, points = 0, width = 0
        for edges in batch {
            cells += (edges.region.width + 2) * edges.region.height
            rows += edges.region.height
            points += edges.points
            width = max(width, edges.region.width)
        }
        return cells <= cellLimit && rows <= min(maxTextureSize, maxGroups) && points <= maxEdges
            && width <= min(maxTextureSize, GPUCoverage.maxWidth)
    }

    /// The coverage of one shape's edges as an R32UI mask over their region, from the lease.
    func mask(_ edges: CoverageEdges, programs: ProgramCache, uniforms: UniformBuffers, lease: GLLease,
              listingTiles: Bool = false) throws -> GPUCoverageMask {
        try masks([edges], programs: programs, uniforms: uniforms, lease: lease, listingTiles: listingTiles)[0]
    }

    /// The coverage of each shape's edges, computed together (one accumulate and one resolve
    /// pass; a single shape too tall for the cell buffer in bands of rows), each mask a band of
    /// rows of one R32UI atlas texture from the lease. With `listingTiles`, each mask's occupied
    /// tiles are listed for its composite (`GPUCoverageMask.tileList`). Several shapes must
    /// `fit` together.
    func masks(_ batch: [CoverageEdges], programs: ProgramCache, uniforms: UniformBuffers, lease: GLLease,
               listingTiles: Bool = false) throws -> [GPUCoverageMask] {
        for edges in batch { try check(edges) }
        let atlasWidth = batch.map(\.region.width).max() ?? 0
        let atlasHeight = batch.reduce(0) { $0 + $1.region.height }
        let atlas = try lease.acquire(.coverage, width: (atlasWidth + 3) / 4, height: atlasHeight, "a coverage mask")
        // The ops' descriptors (coveragecells.glsl), their points one after another (each op's
        // first point starts a chain, so no edge joins two ops), and their tile lists.
        var ops: [CoverageOp] = [], words: [UInt32] = [], masks: [GPUCoverageMask] = []
        var points = 0, cells = 0, row = 0, flags = 0, listWords = 3 * batch.count
        for (index, edges) in batch.enumerated() {
            let region = edges.region, stride = region.width + 2
            let tilesPerRow = listingTiles ? GPUCoverage.tilesPerRow(region) : 0
            let tiles = tilesPerRow * ((region.height + GPUCoverage.tileSize - 1) / GPUCoverage.tileSize)
            ops.append(CoverageOp(firstPoint: Int32(points), firstCell: Int32(cells), rowStride: Int32(stride),
                                  width: Int32(region.width), firstRow: Int32(row), height: Int32(region.height),
                                  evenOdd: edges.rule == .evenOdd ? 1 : 0, tilesPerRow: Int32(tilesPerRow),
                                  firstTileFlag: Int32(flags), listHeader: Int32(3 * index), firstTileWord: Int32(listWords)))
            masks.append(GPUCoverageMask(texture: GLTexture(name: atlas.name, rect: region), atlasRow: row,
                                         tileList: listingTiles ? (header: 3 * index, firstTile: listWords, tilesPerRow: tilesPerRow) : nil))
            words += edges.words
            points += edges.points
            cells += stride * region.height; row += region.height; flags += tiles; listWords += tiles
        }
        let single = batch.count == 1 ? batch[0] : nil
        let bandRows = single.map { max(1, min($0.region.height, cellLimit / ($0.region.width + 2))) } ?? atlasHeight
        reserveCells(single.map { ($0.region.width + 2) * bandRows } ?? cells)
        if listingTiles { startTileLists(ops: batch.count, tiles: flags) }
        upload(ops, to: opBuffer, binding: .ops)
        if points > 0 { upload(words, to: edgeBuffer, binding: .edges) }
        glBindBufferBase(glEnum(GL_SHADER_STORAGE_BUFFER), GLuint(StorageBinding.cells.rawValue), cellBuffer)
        glBindImageTexture(GLuint(ImageUnit.coverage.rawValue), atlas.name, 0, GLboolean(GL_FALSE), 0,
                           glEnum(GL_WRITE_ONLY), glEnum(GL_R32UI))
        let accumulate = try programs.coverage(.accumulate), resolve = try programs.coverage(.resolve)
        // The atlas (pooled) may still be read by an earlier pass.
        counters.barrier()
        // A batch is one pass over all its rows; a single op too tall for the cells, bands of rows.
        var first = 0
        repeat {
            // Bands after the first: the last resolve's clearing of the cells comes first.
            if first > 0 { counters.driver { glMemoryBarrier(GLbitfield(GL_SHADER_STORAGE_BARRIER_BIT)) } }
            let rows = min(bandRows, atlasHeight - first)
            uniforms.write(CoverageBlock(info: SIMD4(Int32(batch.count), Int32(points), tileStamp, 0),
                                         band: SIMD4(Int32(first), single == nil ? Int32.max : Int32(rows), 0, 0)))
            if points > 1 {
                glUseProgram(accumulate.name)
                dispatch(groups: (points - 1 + GPUCoverage.accumulateGroup - 1) / GPUCoverage.accumulateGroup)
                counters.driver { glMemoryBarrier(GLbitfield(GL_SHADER_STORAGE_BARRIER_BIT)) }
            }
            glUseProgram(resolve.name)
            dispatch(groups: rows)
            first += rows
        } while first < atlasHeight
        counters.barrier()
        glBindImageTexture(GLuint(ImageUnit.coverage.rawValue), 0, 0, GLboolean(GL_FALSE), 0, glEnum(GL_WRITE_ONLY), glEnum(GL_R32UI))
        return masks
    }

    private func dispatch(groups: Int) {
        counters.frame.dispatches += 1
        counters.frame.passes += 1
        counters.driver { glDispatchCompute(GLuint(groups), 1, 1) }
    }

    /// Writes `values` into `buffer` (a fresh store) and binds it to its storage binding.
    private func upload<T>(_ values: [T], to buffer: GLuint, binding: StorageBinding) {
        glBindBuffer(glEnum(GL_SHADER_STORAGE_BUFFER), buffer)
        values.withUnsafeBytes { bytes in
            counters.upload(bytes.count) {
                glBufferData(glEnum(GL_SHADER_STORAGE_BUFFER), bytes.count, bytes.baseAddress, glEnum(GL_STREAM_DRAW))
            }
        }
        glBindBufferBase(glEnum(GL_SHADER_STORAGE_BUFFER), GLuint(binding.rawValue), buffer)
    }

    /// Readies the tile flags for `tiles` tiles and `ops` empty lists (each header: no group
    /// yet), binds both, and takes a new stamp (the flags are zeroed only when stamps wrap).
    private func startTileLists(ops: Int, tiles: Int) {
        if tiles > tileCapacity || 3 * ops + tiles > listCapacity || tileStamp == Int32.max {
            tileCapacity = max(tiles, tileCapacity * 2)
            listCapacity = max(3 * ops + tiles, listCapacity * 2)
            let zeros = [Int32](repeating: 0, count: tileCapacity)
            glBindBuffer(glEnum(GL_SHADER_STORAGE_BUFFER), tileFlagBuffer)
            zeros.withUnsafeBytes { bytes in
                counters.upload(bytes.count) {
                    glBufferData(glEnum(GL_SHADER_STORAGE_BUFFER), bytes.count, bytes.baseAddress, glEnum(GL_DYNAMIC_COPY))
                }
            }
            glBindBuffer(glEnum(GL_SHADER_STORAGE_BUFFER), tileListBuffer)
            glBufferData(glEnum(GL_SHADER_STORAGE_BUFFER), listCapacity * 4, nil, glEnum(GL_DYNAMIC_COPY))
            tileStamp = 0
        }
        tileStamp += 1
        let headers = [UInt32]((0..<ops).flatMap { _ in [0, 1, 1] as [UInt32] })
        glBindBuffer(glEnum(GL_SHADER_STORAGE_BUFFER), tileListBuffer)
        headers.withUnsafeBytes { bytes in
            counters.upload(bytes.count) { glBufferSubData(glEnum(GL_SHADER_STORAGE_BUFFER), 0, bytes.count, bytes.baseAddress) }
        }
        glBindBufferBase(glEnum(GL_SHADER_STORAGE_BUFFER), GLuint(StorageBinding.tileFlags.rawValue), tileFlagBuffer)
        glBindBufferBase(glEnum(GL_SHADER_STORAGE_BUFFER), GLuint(StorageBinding.tileList.rawValue), tileListBuffer)
    }

    /// Makes the cell buffer hold at least `cells` cells, all zero (grown storage is uploaded as
    /// zeros once; after that the resolve pass keeps it zero).
    private func reserveCells(_ cells: Int) {
        guard cells > cellCapacity else { return }
        let capacity = min(cellLimit, max(cells, cellCapacity * 2))
        let zeros = [Int32](repeating: 0, count: capacity)
        glBindBuffer(glEnum(GL_SHADER_STORAGE_BUFFER), cellBuffer)
        zeros.withUnsafeBytes { bytes in
            counters.upload(bytes.count) {
                glBufferData(glEnum(GL_SHADER_STORAGE_BUFFER), bytes.count, bytes.baseAddress, glEnum(GL_DYNAMIC_COPY))
            }
        }
        cellCapacity = capacity
    }
}
