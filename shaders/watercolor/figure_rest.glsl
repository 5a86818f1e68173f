// A figure beyond its face and features (hair, clothes), 0..1, from the focus map (.y the
// features, .z the face, .w the figure: focus.frag).
float beyond_face(vec4 focus) {
    return focus.w * (1.0 - smoothstep(0.1, 0.5, focus.z)) * (1.0 - smoothstep(0.1, 0.4, focus.y));
}
