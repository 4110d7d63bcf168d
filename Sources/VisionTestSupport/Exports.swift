// Tests that import VisionTestSupport also get `SHA256` (FileInput), which moved to the library.
@_exported import FileInput
