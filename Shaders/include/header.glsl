// header: every program's first lines. GLSL ES 3.20 for `precise` (no fused
// multiply-add where the CPU rounds each operation), highp everywhere.
#version 320 es
precision highp float;
precision highp int;
precision highp sampler2D;
precision highp usampler2D;
