package io.erasure.audit.scratch;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where audit units put what they download (a Cassandra backup's SSTables, a Parquet part too large for memory): one
 * folder per process, {@code <tmp>/erasure-audit-<pid>-<start millis>/}. A unit removes its own files; a process killed
 * mid-unit cannot, and a crash-looping service would fill the disk with a table's SSTables per crash, so each start
 * sweeps the folders of processes that no longer run. Each process holds a lock on its folder's {@value #LOCK} for as
 * long as it runs (the system releases it when the process dies, however it dies), and a folder is swept only if that
 * lock can be taken; a folder without one (being created) is swept only if no process with its pid and start time
 * runs (a pid alone is reused, a container's is always the same).
 */
public final class ScratchSpace {

    private static final Logger log = LoggerFactory.getLogger(ScratchSpace.class);

    private static final String PREFIX = "erasure-audit-";
    private static final Pattern OWNED = Pattern.compile(Pattern.quote(PREFIX) + "(\\d+)-(\\d+)");

    /** What versions before the per-process folder left in the temporary folder itself. */
    private static final Pattern LEGACY = Pattern.compile("erasure-(medusa-unit-|part-).*");

    private static final String LOCK = ".lock";

    private static final ScratchSpace PROCESS = new ScratchSpace(tmp(), ProcessHandle.current());

    private final Path folder;

    /** Held while this process runs; never released, so never collected. */
    private @Nullable FileLock held;

    private ScratchSpace(Path tmp, ProcessHandle process) {
        this.folder = tmp.resolve(folderName(process));
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
        return Files.createTempDirectory(ownFolder(), prefix);
    }

    /** A new empty file of its own, {@code <prefix><random><suffix>}; the caller removes it. */
    public Path newFile(String prefix, String suffix) throws IOException {
        return Files.createTempFile(ownFolder(), prefix, suffix);
    }

    /** The folder, created with its lock taken on first use. */
    private synchronized Path ownFolder() throws IOException {
        Files.createDirectories(folder);
        if (held == null) {
            FileChannel channel =
                    FileChannel.open(folder.resolve(LOCK), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            held = channel.tryLock();
            if (held == null) {
                channel.close();
                throw new IOException("the scratch folder " + folder + " is locked by another process with this"
                        + " process's pid and start time");
            }
        }
        return folder;
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
                        ? abandoned(entry, Long.parseLong(owned.group(1)), Long.parseLong(owned.group(2)))
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

    /** The folder name a process's scratch space has: its pid and start time (0 if unknown). */
    static String folderName(ProcessHandle process) {
        return PREFIX + process.pid() + "-" + startMillis(process).orElse(0L);
    }

    /**
     * Whether no process holds the folder: its lock can be taken (and is let go again at once), or, with no lock
     * file, no process of its pid and start time runs.
     */
    private static boolean abandoned(Path folder, long pid, long startMillis) throws IOException {
        Path lock = folder.resolve(LOCK);
        if (!Files.exists(lock)) {
            return !running(pid, startMillis);
        }
        try (FileChannel channel = FileChannel.open(lock, StandardOpenOption.WRITE)) {
            FileLock taken = channel.tryLock();
            if (taken == null) {
                return false;
            }
            taken.release();
            return true;
        } catch (OverlappingFileLockException e) {
            return false; // this process's own
        }
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

    /**
     * Removes a folder or file of the scratch space with all it holds. Best effort: callers run it in {@code finally},
     * where a failure would replace their own outcome; what is left is logged, and swept once its process has ended.
     *
     * @return whether it is gone
     */
    public static boolean remove(Path root) {
        return deleteTree(root);
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
