#version 330 core
// A tile's window onto a target made for the whole picture (engine/tiles.py): the target
// sampled at the texel centres of the tile pass that reads it, placed in the whole picture,
// so that pass reads, at its own texel centres, what it reads from the whole target untiled.
out vec4 frag;
uniform sampler2D src;
uniform vec2 u_offset;  // the tile's first texel in the reading pass's whole-picture grid
uniform vec2 u_grid;    // the reading pass's output size for the whole picture

void main() {
    frag = texture(src, (gl_FragCoord.xy + u_offset) / u_grid);
}
