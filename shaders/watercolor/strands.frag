#version 330 core
// Strands: the abstracted picture smoothed along its tangent flow over a long streamline
// (line integral convolution over STRAND_SIGMA reference px, at most STRAND_PER_FACE of the
// faces' size), for a found figure's hair and clothes (quantize.frag, `hair_flow`): their
// tone steps then become shapes stretched along the strands and folds, as a painter lays
// hair in a few strokes that follow it, instead of the blobs that read as camouflage. .w:
// the flow's anisotropy along the same walk (hair is strand-like, skin and an unfound face
// are not). Walked only on the figure beyond the face, in at most STRAND_STEPS steps each
// way (longer ones on a big picture: its cost does not grow with the picture).
// tiles: reach ceil(2.0 * 22.0 * u_px * u_target_scale) + 2
#include "common/flow.glsl"
#include "watercolor/figure_rest.glsl"
out vec4 frag;
uniform sampler2D src;   // Lab, abstracted
uniform sampler2D tfm;   // nearest
uniform sampler2D focus;  // the focus map (focus.frag): strands are walked on the figure only
uniform float u_px;             // work px per reference px
uniform float u_scale;          // work px per source px
uniform float u_face_size;      // the faces' median size, source px
uniform float u_target_scale;   // this target's size relative to the work size
uniform vec2 u_resolution;
uniform vec2 u_work_size;

const float STRAND_SIGMA = 22.0;  // reference px (the reach above says it too)
const float STRAND_PER_FACE = 0.1;  // at most this of the faces' size: small figures' strokes
                                    // are short (a group's collars and ties are not smeared)
const float STRAND_STEPS = 12.0;

void main() {
    vec2 uv = gl_FragCoord.xy / u_resolution;
    if (beyond_face(texture(focus, uv)) <= 0.0) {  // the tones take no strands here
        frag = vec4(texelFetch(src, ivec2(gl_FragCoord.xy), 0).xyz, 0.0);
        return;
    }
    float sigma = min(STRAND_SIGMA * max(u_px, 1e-3),  // work px
                      max(STRAND_PER_FACE * u_face_size * u_scale, 1e-3));
    // STRAND_STEPS steps reach 2 sigma less half a step: no step ends on the reach itself
    float h = max(1.0 / u_target_scale, 2.0 * sigma / (STRAND_STEPS + 0.5));
    float w2, coherence;
    vec3 lab = lic_coherence(src, tfm, uv, u_work_size, sigma, h, w2, coherence).xyz;
    frag = vec4(lab, coherence);
}
