// quad.vert: the device-space quads of a pass. With uTarget.z 0, one
// quad and no vertex buffer: gl_VertexID 0..3 picks the corners of uQuad
// (target pixels: x0, y0, x1, y1) for a triangle strip. With 1, the corners
// come from aCorner (target pixels), two triangles per rectangle: the
// occupied tiles of a sparse mask (CoverageTiles). Target pixel (x, y) is
// texel (x, y), row 0 the top row of the image, so device y maps to NDC
// without a flip.
// QuadBlock in UniformBlocks.swift mirrors the block.
layout(std140, binding = BLOCK_QUAD) uniform QuadBlock {
    vec4 uQuad;
    vec4 uTarget;              // the target's size (xy); the corners come from aCorner (z != 0)
};
layout(location = 0) in vec2 aCorner;

void main() {
    vec2 corner = uTarget.z != 0.0 ? aCorner
        : vec2((gl_VertexID & 1) == 0 ? uQuad.x : uQuad.z, (gl_VertexID & 2) == 0 ? uQuad.y : uQuad.w);
    gl_Position = vec4(corner / uTarget.xy * 2.0 - 1.0, 0.0, 1.0);
}
