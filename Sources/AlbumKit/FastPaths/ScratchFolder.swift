import Foundation

/// Where the built-in import stages that remember more than memory holds (``DedupeStage``)
/// make their scratch files: the library folder while an import runs its stages, so that a
/// large import's scratch lands on the library's disk; the system's temporary folder for a
/// stage run elsewhere. A task-local value, so that the stages' public ``StageBatch`` carries
/// no scratch-file internals.
enum ScratchFolder {
    /// The folder for the stages running in this task.
    @TaskLocal static var current = FileManager.default.temporaryDirectory
}
