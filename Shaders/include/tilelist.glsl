// tilelist: the occupied tiles of ops' coverage, listed by resolve.comp for
// composite.comp (GPUCoverage.swift): per tile of each op's 16 x 16 grid
// the stamp of the last batch that listed it, and the lists: the ops'
// headers first (three words each, an indirect dispatch's work group
// counts: x is the number of tiles listed), then each op's tiles.
layout(std430, binding = STORAGE_TILE_FLAGS) buffer TileFlags { int tileFlags[]; };
layout(std430, binding = STORAGE_TILE_LIST) buffer TileList { uint tileWords[]; };
