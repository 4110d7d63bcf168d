import Foundation
import VisionCLI

#if canImport(Glibc)
    import Glibc

    // Large temporary buffers (a decoded photo and its planes, LiteRT's packed filters) come from the heap
    // and stay mapped between pictures: with glibc's defaults each is mapped and unmapped again, and in
    // about half of the processes every page of it is faulted in anew for each picture (a 720p JPEG then
    // decodes in 5–6 ms instead of 2.6 ms). 16 MB and 32 MB keep a 4K photo's buffers mapped while a
    // long run's memory stays flat (`vision-tasks soak`: +0.5 MB over 600 model cycles). glibc's mallopt
    // (<malloc.h>, which Swift's Glibc module leaves out): M_MMAP_THRESHOLD is -3, M_TRIM_THRESHOLD -1;
    // a null handle is RTLD_DEFAULT.
    if let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") {
        let mallopt = unsafeBitCast(symbol, to: (@convention(c) (Int32, Int32) -> Int32).self)
        _ = mallopt(-3, 16 << 20)
        _ = mallopt(-1, 32 << 20)
    }
#endif

exit(VisionTasksCommand.main(Array(CommandLine.arguments.dropFirst())))
