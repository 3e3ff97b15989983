// quad.vert: one device-space quad per pass, no vertex buffer. gl_VertexID
// 0..3 picks the corners of uQuad (target pixels: x0, y0, x1, y1) for a
// triangle strip. Target pixel (x, y) is texel (x, y), row 0 the top row of
// the image, so device y maps to NDC without a flip.
uniform vec4 uQuad;
uniform vec2 uTargetSize;

void main() {
    vec2 corner = vec2((gl_VertexID & 1) == 0 ? uQuad.x : uQuad.z,
                       (gl_VertexID & 2) == 0 ? uQuad.y : uQuad.w);
    gl_Position = vec4(corner / uTargetSize * 2.0 - 1.0, 0.0, 1.0);
}
