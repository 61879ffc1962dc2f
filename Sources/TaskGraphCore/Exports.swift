// The basics (threads, child processes, files, locks, usage metering) are part of the library's
// interface: `import TaskGraphCore` brings them along.
@_exported import TaskGraphBasics
