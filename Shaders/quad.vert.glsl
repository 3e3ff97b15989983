// quad.vert: the device-space quad of a pass, with no vertex buffer:
// gl_VertexID 0..3 picks the corners of uQuad (target pixels: x0, y0, x1,
// y1) for a triangle strip. Target pixel (x, y) is texel (x, y), row 0 the
// top row of the image, so device y maps to NDC without a flip.
// QuadBlock in UniformBlocks.swift mirrors the block.
layout(std140, binding = BLOCK_QUAD) uniform QuadBlock {
    vec4 uQuad;
    vec4 uTarget;              // the target's size (xy)
};

void main() {
    vec2 corner = vec2((gl_VertexID & 1) == 0 ? uQuad.x : uQuad.z, (gl_VertexID & 2) == 0 ? uQuad.y : uQuad.w);
    gl_Position = vec4(corner / uTarget.xy * 2.0 - 1.0, 0.0, 1.0);
}
