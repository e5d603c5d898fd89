package io.erasure.audit.scratch;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ScratchSpaceTest {

    @TempDir
    Path tmp;

    @Test
    void aSweepRemovesTheFoldersOfProcessesThatNoLongerRunAndKeepsLiveOnes() throws Exception {
        Process killed = new ProcessBuilder("sleep", "60").start();
        ProcessHandle dead = killed.toHandle();
        String deadFolder = ScratchSpace.folderName(dead); // read while it runs: its start is known
        killed.destroyForcibly().waitFor();
        Path orphan = Files.createDirectories(tmp.resolve(deadFolder).resolve("sstable-unit-1"));
        Files.write(orphan.resolve("nb-1-big-Data.db"), new byte[1024]);
        Path live = Files.createDirectories(tmp.resolve(ScratchSpace.folderName(ProcessHandle.current())));
        Path reusedPid = Files.createDirectories(
                tmp.resolve("erasure-audit-" + ProcessHandle.current().pid() + "-12345"));
        Path unknownStart = Files.createDirectories(tmp.resolve("erasure-audit-" + dead.pid() + "-0"));
        Path oldLegacy = Files.createDirectories(tmp.resolve("erasure-medusa-unit-123"));
        Files.setLastModifiedTime(oldLegacy, FileTime.from(Instant.now().minus(Duration.ofDays(2))));
        Path newLegacy = Files.createFile(tmp.resolve("erasure-part-456.parquet"));
        Path other = Files.createDirectories(tmp.resolve("erasure-chaos-it-1"));
        // a folder whose lock file's owner died: swept whatever its name says, as the lock can be taken
        Path unlocked = Files.createDirectories(tmp.resolve(ScratchSpace.folderName(ProcessHandle.current()) + "1"));
        Files.createFile(unlocked.resolve(".lock"));

        int removed = ScratchSpace.sweep(tmp, Duration.ofDays(1));

        assertThat(deadFolder).doesNotEndWith("-0");
        assertThat(removed).isEqualTo(4);
        assertThat(unlocked).doesNotExist();
        assertThat(tmp.resolve(deadFolder)).doesNotExist();
        assertThat(reusedPid).as("its pid runs, but started at another time").doesNotExist();
        assertThat(oldLegacy).doesNotExist();
        assertThat(live).as("this process's own").exists();
        assertThat(unknownStart).as("whose owner cannot be told").exists();
        assertThat(newLegacy).as("a legacy file younger than a unit may run").exists();
        assertThat(other).as("not the audit's").exists();
    }

    @Test
    void aProcessesFilesAndFoldersLieInItsOwnFolder() throws Exception {
        ScratchSpace space = ScratchSpace.ofThisProcess();
        Path unit = space.newDirectory("sstable-unit-");
        Path part = space.newFile("part-", ".parquet");
        try {
            String own = ScratchSpace.folderName(ProcessHandle.current());
            assertThat(unit.getParent().getFileName()).hasToString(own);
            assertThat(part.getParent().getFileName()).hasToString(own);
            assertThat(unit.getFileName().toString()).startsWith("sstable-unit-");
            assertThat(unit.getParent().resolve(".lock")).exists();
            ScratchSpace.sweep(unit.getParent().getParent(), Duration.ofDays(1));
            assertThat(unit).as("its folder is locked while it runs").exists();
            assertThat(part).exists();
        } finally {
            Files.deleteIfExists(unit);
            Files.deleteIfExists(part);
        }
    }
}
