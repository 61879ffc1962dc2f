/// An action that starts a program (an `exec`), so that `validate` can report a program that
/// is not there before anything runs.
package protocol ProgramStartingAction: TaskAction {
    /// The program as written: a name looked up on `PATH`, or a path (with a "/").
    var programName: String { get }
    /// Why the program cannot be started as things are now (not on `PATH`, no such file), or
    /// nil when it can, looked up through `programs`. Blocking (looks at the file system).
    func programProblem(_ programs: ProgramLocations) -> ChildProcessError?
    /// The program's path when `programName` is a path, absolute: a file another operation
    /// may write.
    var programPath: String? { get }
}
