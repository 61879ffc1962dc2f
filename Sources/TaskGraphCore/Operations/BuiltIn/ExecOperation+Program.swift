/// The program an `exec` starts, looked up as running it would (`ProgramLocations`).
extension ExecOperation: ProgramStartingAction {
    var programName: String { command[0] }

    func programProblem(_ programs: ProgramLocations) -> ChildProcessError? {
        programs.path(of: programName, searchPath: environment["PATH"], workingDirectory: workingDirectory) == nil
            ? .programMissing(programName, in: workingDirectory) : nil
    }

    var programPath: String? {
        programName.contains("/") ? PathResolver.resolve(programName, in: workingDirectory) : nil
    }
}
