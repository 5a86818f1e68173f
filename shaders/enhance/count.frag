#version 330 core
// A scattered point's contribution: 1 (a histogram's count).
out vec4 frag;

void main() {
    frag = vec4(1.0);
}
