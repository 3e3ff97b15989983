// tilelist: the occupied tiles of an op's coverage, listed by resolve.comp
// for composite.comp (GPUCoverage.swift): per tile of the region's 16 x 16
// grid the stamp of the last op that listed it, and the list itself, whose
// header is the indirect dispatch's work group counts (x: tiles listed).
layout(std430, binding = STORAGE_TILE_FLAGS) buffer TileFlags { int tileFlags[]; };
layout(std430, binding = STORAGE_TILE_LIST) buffer TileList { uint tileGroups[3]; uint tiles[]; };
