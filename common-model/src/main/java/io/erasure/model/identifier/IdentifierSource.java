package io.erasure.model.identifier;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.erasure.model.check.Allowed;
import io.erasure.model.check.Names;
import io.erasure.model.check.Require;
import io.erasure.model.dataset.BackupLayout;
import io.erasure.model.dataset.BackupLocation;
import io.erasure.model.dataset.StoreKind;
import java.time.Duration;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * The table that says which identifiers (customers, accounts...) may be deleted, and since when.
 * An identifier becomes deletable once {@code deletableSinceColumn} is set and the grace period
 * has passed; datasets name their source by {@link #name()}. Audits read its backups, never the
 * live table.
 *
 * <p>{@code ownerTeam} is the team whose OWNERs may change the source (OPERATORs always may); null for a source
 * owned by the operators. A change of any field, the owner included, holds the next run of every dataset using it.
 */
public record IdentifierSource(
        String name,
        StoreKind storeKind,
        String connectionRef,
        String namespace,
        String table,
        String identifierColumn,
        String deletableSinceColumn,
        BackupLocation backup,

        @Allowed("an ISO-8601 duration of at least PT0S, e.g. PT72H")
        Duration gracePeriod,

        @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable String ownerTeam) {

    public IdentifierSource {
        Names.datasetName("identifierSource.name", name);
        Require.nonNull("identifierSource.storeKind (one of " + StoreKind.known() + ")", storeKind);
        Names.connectionRef("identifierSource.connectionRef", connectionRef);
        Names.identifier("identifierSource.namespace", namespace);
        Names.identifier("identifierSource.table", table);
        Names.identifier("identifierSource.identifierColumn", identifierColumn);
        Names.identifier("identifierSource.deletableSinceColumn", deletableSinceColumn);
        Require.that(
                !deletableSinceColumn.equals(identifierColumn),
                "identifierSource.deletableSinceColumn must be a timestamp column of its own, not the identifier"
                        + " column '" + identifierColumn + "'");
        Require.nonNull("identifierSource.backup", backup);
        if (backup.layout() != BackupLayout.PLATFORM) {
            throw new IllegalArgumentException("identifierSource.backup must be in the platform's layout (an export or"
                    + " Parquet files with a manifest of ours), got " + backup.layout());
        }
        if (gracePeriod == null) {
            gracePeriod = Duration.ZERO;
        }
        if (gracePeriod.isNegative()) {
            throw new IllegalArgumentException(
                    "identifierSource.gracePeriod must be >= 0 (e.g. PT72H), got " + gracePeriod);
        }
        if (ownerTeam != null) {
            Require.nonBlank("identifierSource.ownerTeam", ownerTeam);
        }
    }

    /** A source owned by the operators (no team). */
    public IdentifierSource(
            String name,
            StoreKind storeKind,
            String connectionRef,
            String namespace,
            String table,
            String identifierColumn,
            String deletableSinceColumn,
            BackupLocation backup,
            Duration gracePeriod) {
        this(
                name,
                storeKind,
                connectionRef,
                namespace,
                table,
                identifierColumn,
                deletableSinceColumn,
                backup,
                gracePeriod,
                null);
    }

    /** This source owned by {@code team}. */
    public IdentifierSource ownedBy(String team) {
        return new IdentifierSource(
                name,
                storeKind,
                connectionRef,
                namespace,
                table,
                identifierColumn,
                deletableSinceColumn,
                backup,
                gracePeriod,
                team);
    }

    /** True if an identifier marked deletable at {@code deletableSince} may be deleted at {@code now}. */
    public boolean deletableAt(Instant deletableSince, Instant now) {
        return deletableSince != null && !deletableSince.plus(gracePeriod).isAfter(now);
    }
}
