// The basics (threads, child processes, files, locks, usage metering) and the pipeline format
// (YAML reading, locations, diagnostics, parameter types and values, reading and checking a
// pipeline file, operation declarations, node settings) are part of the library's
// interface: `import TaskGraphCore` brings them along.
@_exported import TaskGraphBasics
@_exported import TaskGraphPipeline
