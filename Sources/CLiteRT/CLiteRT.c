// Header-only target: see include/CLiteRT.h.
