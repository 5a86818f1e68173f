// A hand-made boil: below steadiness 0.5 the painting's textures jump on every second frame,
// as when each frame of an animation is painted anew. A jump is a seeded random offset of
// texture coordinates (reference px), up to BOIL_REACH at steadiness 0; frames 0 and 1 have
// none, so a still and a video's first frame are the same at any steadiness. Needs noise.glsl.

const float BOIL_REACH = 48.0;  // reference px: grain and borders renew, big washes tremble

// This pair of frames' offset (frames 2k and 2k+1 share one), for lookups made anew each frame.
vec2 boil_shift(float steadiness, int frame, int seed) {
    float amount = clamp(1.0 - 2.0 * steadiness, 0.0, 1.0);
    ivec2 step = ivec2(frame / 2, 0);
    if (amount <= 0.0 || step.x == 0) {
        return vec2(0.0);
    }
    uint key = noise_key(seed, 701);
    vec2 h = vec2(hash_key(step, key), hash_key(step + ivec2(0, 1), key)) - 0.5;
    return amount * BOIL_REACH * h;
}

// The jump on this frame, for coordinates carried from frame to frame (the advected canvas):
// a new offset on even frames, none on odd ones.
vec2 boil_jump(float steadiness, int frame, int seed) {
    return frame % 2 == 1 ? vec2(0.0) : boil_shift(steadiness, frame, seed);
}
