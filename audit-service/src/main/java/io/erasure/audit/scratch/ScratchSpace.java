package io.erasure.audit.scratch;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where audit units put what they download (a Cassandra backup's SSTables, a Parquet part too large for memory): one
 * folder per process, {@code <tmp>/erasure-audit-<pid>-<start millis>/}. A unit removes its own files; a process killed
 * mid-unit cannot, and a crash-looping service would fill the disk with a table's SSTables per crash, so each start
 * sweeps the folders of processes that no longer run (a pid alone is reused, a container's is always the same; a pid
 * with its start time is not).
 */
public final class ScratchSpace {

    private static final Logger log = LoggerFactory.getLogger(ScratchSpace.class);

    private static final String PREFIX = "erasure-audit-";
    private static final Pattern OWNED = Pattern.compile(Pattern.quote(PREFIX) + "(\\d+)-(\\d+)");

    /** What versions before the per-process folder left in the temporary folder itself. */
    private static final Pattern LEGACY = Pattern.compile("erasure-(medusa-unit-|part-).*");

    private static final ScratchSpace PROCESS = new ScratchSpace(tmp(), ProcessHandle.current());

    private final Path folder;

    private ScratchSpace(Path tmp, ProcessHandle process) {
        this.folder =
                tmp.resolve(PREFIX + process.pid() + "-" + startMillis(process).orElse(0L));
    }

    /** This process's scratch space, under {@code java.io.tmpdir}. */
    public static ScratchSpace ofThisProcess() {
        return PROCESS;
    }

    /** The process's folder (it may not exist yet). */
    public Path folder() {
        return folder;
    }

    /** A new folder of its own, {@code <prefix><random>}; the caller removes it. */
    public Path newDirectory(String prefix) throws IOException {
        return Files.createTempDirectory(Files.createDirectories(folder), prefix);
    }

    /** A new empty file of its own, {@code <prefix><random><suffix>}; the caller removes it. */
    public Path newFile(String prefix, String suffix) throws IOException {
        return Files.createTempFile(Files.createDirectories(folder), prefix, suffix);
    }

    /** Sweeps {@code java.io.tmpdir}: see {@link #sweep(Path, Duration)}; legacy files older than a day. */
    public static int sweep() {
        return sweep(tmp(), Duration.ofDays(1));
    }

    /**
     * Removes the scratch folders under {@code tmp} of processes that no longer run, and what older versions left
     * directly in {@code tmp} ({@code erasure-medusa-unit-*}, {@code erasure-part-*}) once older than {@code
     * legacyAge} (no owner is recorded for those; a unit never runs that long). Best effort: what cannot be removed is
     * logged and left.
     *
     * @return the folders and files removed
     */
    public static int sweep(Path tmp, Duration legacyAge) {
        int removed = 0;
        Instant legacyBefore = Instant.now().minus(legacyAge);
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(tmp, "erasure-*")) {
            for (Path entry : entries) {
                String name = entry.getFileName().toString();
                Matcher owned = OWNED.matcher(name);
                boolean orphan = owned.matches()
                        ? !running(Long.parseLong(owned.group(1)), Long.parseLong(owned.group(2)))
                        : LEGACY.matcher(name).matches()
                                && Files.getLastModifiedTime(entry).toInstant().isBefore(legacyBefore);
                if (orphan && deleteTree(entry)) {
                    removed++;
                }
            }
        } catch (IOException | UncheckedIOException e) {
            log.warn("could not sweep the audit's scratch folders under {}: {}", tmp, e.toString());
        }
        if (removed > 0) {
            log.info(
                    "removed {} scratch folders and files under {} left by audit processes that no longer run",
                    removed,
                    tmp);
        }
        return removed;
    }

    /** The folder name a process's scratch space has (for tests). */
    static String folderName(ProcessHandle process) {
        return PREFIX + process.pid() + "-" + startMillis(process).orElse(0L);
    }

    /** Whether the process is still the one that made the folder; one whose start was unknown is never swept. */
    private static boolean running(long pid, long startMillis) {
        if (startMillis == 0) {
            return true;
        }
        return ProcessHandle.of(pid)
                .flatMap(ScratchSpace::startMillis)
                .map(start -> start == startMillis)
                .orElse(false);
    }

    private static Optional<Long> startMillis(ProcessHandle process) {
        return process.info().startInstant().map(Instant::toEpochMilli);
    }

    private static boolean deleteTree(Path root) {
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
            return true;
        } catch (IOException | UncheckedIOException e) {
            log.warn("could not remove the scratch folder {}: {}", root, e.toString());
            return false;
        }
    }

    private static Path tmp() {
        return Path.of(System.getProperty("java.io.tmpdir"));
    }
}
