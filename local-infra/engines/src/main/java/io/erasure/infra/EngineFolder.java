package io.erasure.infra;

import io.erasure.infra.process.Folders;
import java.nio.file.Path;

/**
 * Where an engine keeps its data: a temporary folder removed when the engine stops (tests), or a
 * persistent folder kept across restarts (the local platform).
 */
public record EngineFolder(Path path, boolean temporary) {

    public static EngineFolder temporary(String engine) {
        return new EngineFolder(Folders.temporary(engine), true);
    }

    public static EngineFolder persistent(Path path) {
        return new EngineFolder(path.toAbsolutePath(), false);
    }

    void release() {
        if (temporary) {
            Folders.deleteRecursively(path);
        }
    }
}
