import Foundation

/// The process's environment variables, read once: `ProcessInfo.processInfo.environment`
/// decodes every variable into a new dictionary each time it is asked (about 350,000
/// instructions with 35 variables), and a `run` needs them in six places. taskgraph never
/// changes its own environment.
enum ProcessEnvironment {
    /// Every variable, by name.
    static let variables = ProcessInfo.processInfo.environment
}
