// Header-only target: see include/KernelFormats.h.
