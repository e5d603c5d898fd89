package io.erasure.model.dataset;

/** How a backup location's objects are laid out, so who wrote them and how they are found and checked. */
public enum BackupLayout {

    /**
     * The platform's own: one folder per snapshot under the prefix, with a manifest of ours giving the cut-off, the
     * schema and a SHA-256 and row count per part (written by the exporter, or by a team for Parquet files).
     */
    PLATFORM,

    /**
     * A cassandra-medusa storage prefix: {@code <fqdn>/<backup>/meta/{schema.cql, tokenmap.json, manifest.json}} per
     * node and SSTables under {@code <fqdn>/<backup>/data/} (or {@code <fqdn>/data/} when differential), each object
     * checked against the manifest's MD5. The newest backup every node completed is audited, as of its start.
     */
    MEDUSA,

    /**
     * Plain {@code nodetool snapshot} uploads of one table: {@code <tag>/<node>/} per snapshot and node, holding that
     * node's snapshot folder as Cassandra wrote it (SSTable components, its {@code manifest.json} with
     * {@code created_at}, and {@code schema.cql}). A snapshot is complete once the location's {@code nodes} node
     * folders each hold every component their SSTables' {@code TOC.txt} name; each {@code Data.db} is checked against
     * its {@code Digest.crc32}.
     * The newest complete snapshot is audited, as of its earliest node's {@code created_at}.
     */
    NODETOOL_SNAPSHOT,

    /**
     * Amazon RDS / Aurora snapshot exports to S3 of one PostgreSQL table: {@code <export>/} per export task under the
     * prefix (the export's S3 prefix), holding {@code export_info_<export>.json}, its
     * {@code export_tables_info_<export>_from_<n>_to_<m>.json} files and the table's Parquet files under
     * {@code <database>/<schema>.<table>/<n>/}. An export is complete once its export info says {@code COMPLETE} and
     * its tables info lists the table as {@code COMPLETE}. The newest complete export is audited, as of its
     * {@code snapshotTime}; each Parquet file is read as listed when the audit was planned (size and ETag).
     */
    RDS_EXPORT;

    /** Whether the location holds a Cassandra cluster's SSTables, read by the SSTable reader. */
    public boolean holdsSSTables() {
        return this == MEDUSA || this == NODETOOL_SNAPSHOT;
    }
}
