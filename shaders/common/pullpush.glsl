// Push step of pull-push hole filling on premultiplied values (.w = weight): where the fine
// level's weight is below 1, blend in the coarser level's normalized value.
vec4 push_fill(vec4 fine, vec4 coarse) {
    float wf = clamp(fine.w, 0.0, 1.0);
    vec3 cn = coarse.w > 1e-6 ? coarse.xyz / coarse.w : vec3(0.0);
    return vec4(fine.xyz + (1.0 - wf) * cn, max(wf, step(1e-6, coarse.w)));
}
