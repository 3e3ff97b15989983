// composite: one op (or a shadow) over a rectangle of the current target
// (its region, or one rectangle of a sparse mask's occupied tiles), one
// invocation per pixel; or, with GPU coverage's tile list, over the listed
// 16 x 16 tiles of the region only, one work group per tile (an indirect
// dispatch: the list's header holds the count). In place: the target is bound to two image units,
// read through one and written through the other (RGBA8 images are read-only
// or write-only in GLSL ES 3.20, and an image variable without `restrict`
// may alias another, so the invocation's load is ordered before its store).
// Each pixel is read and written by its own invocation only, so no copy of
// the destination is needed; glMemoryBarrier orders one dispatch's stores
// before the next pass's reads. The RGBA8 store keeps the U8 result exactly.
//! include header.glsl
//! include fixed.glsl
//! include fixed64.glsl
//! include mask.glsl
//! include paint.glsl
//! include blend.glsl
//! include compositepixel.glsl
//! include tilelist.glsl

layout(local_size_x = TILE_SIZE, local_size_y = TILE_SIZE) in;
layout(rgba8, binding = IMAGE_TARGET) readonly uniform highp image2D uTarget;
layout(rgba8, binding = IMAGE_TARGET_OUT) writeonly uniform highp image2D uTargetOut;

void main() {
    ivec2 offset = ivec2(gl_GlobalInvocationID.xy);
    int tilesPerRow = uCompositeTiles.x;
    if (tilesPerRow > 0) {
        int tile = int(tileWords[uCompositeTiles.y + int(gl_WorkGroupID.x)]);
        offset = ivec2(tile % tilesPerRow, tile / tilesPerRow) * TILE_SIZE + ivec2(gl_LocalInvocationID.xy);
    }
    if (offset.x >= uCompositePacking.z || offset.y >= uCompositePacking.w) return;
    ivec2 local = uOrigins.zw + offset;
    ivec4 destination = ivec4(unormBytes(imageLoad(uTarget, local)));
    ivec4 result;
    if (compositePixel(local, destination, result)) imageStore(uTargetOut, local, vec4(result) / 255.0);
}
