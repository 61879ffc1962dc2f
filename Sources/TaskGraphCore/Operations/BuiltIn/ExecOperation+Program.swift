import Foundation

/// The program an `exec` starts, looked up as running it would (`ProgramLocations`).
extension ExecOperation: ProgramStartingAction {
    var programName: String { command[0] }

    func programProblem(_ programs: ProgramLocations) -> ChildProcessError? {
        programs.path(of: programName, searchPath: environment["PATH"], workingDirectory: workingDirectory) == nil
            ? .programMissing(programName, in: workingDirectory) : nil
    }

    var programPath: String? {
        guard programName.contains("/") else { return nil }
        return PathResolver.resolve(programName, in: workingDirectory ?? FileManager.default.currentDirectoryPath)
    }
}
