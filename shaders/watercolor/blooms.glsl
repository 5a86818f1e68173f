// Blooms (backruns, issue 29): water reaching a wash that is still damp pushes its pigment
// outward, leaving a paler patch inside a branching front where the pigment gathers in a
// soft dark band that fades inwards. A few per wet area, inside flat light and middle washes
// (in a dark one the pale patch reads as a hole; across a border as a stain), never on a
// face (trial F4: a pale patch in a cheek read as a skin disease, its branching rim as veins
// or cracks; a portraitist keeps skin in soft graded washes however wet the sheet): blobs of
// seeded noise on the advected canvas (they move with the picture) above a threshold, their
// front made lobed by a finer octave; the front's distance in output px from the noise's
// screen derivative. Needs canvas_noise.glsl, pigment.glsl and color.glsl; call in uniform
// control flow (fwidth).
uniform float u_blooms;

const float BLOOM_CELL = 40.0;      // reference px: the blobs' size
const float BLOOM_LEVEL = 0.75;     // of the noise: a few blobs per wet area
const float BLOOM_PALE = 0.3;       // of the pigment pushed out of the inside
const float BLOOM_RIM = 0.9;        // the band's extra pigment density, on the front
const float BLOOM_BAND = 4.0;       // reference px: how far in the band fades
const float BLOOM_DEEP = 10.0;      // reference px: how far in the inside gets its palest
const float BLOOM_FACE = 0.5;       // of the face map from which none blooms (its soft rim)

// `c`: the wash here (`flat_wash`: 1 inside a flat wash, 0 on a border); `p` source px, `uv`
// its texture position; `ref` output px per reference px; `wet`: washes_meet's wetness;
// `face`: how much this is a face (the focus map's .z, 1 in its oval; 0 without a subject).
vec3 bloomed(vec3 c, float flat_wash, vec2 p, vec2 uv, float ref, float wet, float face) {
    float f = canvas_noise(p, uv, BLOOM_CELL * ref, 701)
              + 0.1 * (canvas_noise(p, uv, 7.0 * ref, 702) - 0.5);
    float d = (f - BLOOM_LEVEL) / max(fwidth(f), 1e-6);  // output px inside the front
    float k = u_blooms * smoothstep(0.3, 0.45, wet) * flat_wash
              * smoothstep(0.2, 0.4, luma(c)) * (1.0 - smoothstep(0.0, BLOOM_FACE, face));
    if (k <= 0.0 || d < -1.0) {
        return c;
    }
    float inside = smoothstep(-0.75, 0.75, d);
    float band = inside * (1.0 - smoothstep(0.0, BLOOM_BAND * ref, d));
    float pale = inside * smoothstep(0.0, BLOOM_DEEP * ref, d);
    c = mix(c, vec3(1.0), BLOOM_PALE * k * pale);
    return pigment(c, 1.0 + BLOOM_RIM * k * band);
}
