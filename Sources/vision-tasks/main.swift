import Foundation
import VisionCLI

exit(VisionTasksCommand.main(Array(CommandLine.arguments.dropFirst())))
