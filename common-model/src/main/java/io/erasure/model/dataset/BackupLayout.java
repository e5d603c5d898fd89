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
    MEDUSA
}
