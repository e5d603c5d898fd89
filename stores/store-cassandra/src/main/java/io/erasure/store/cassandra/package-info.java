/**
 * The Cassandra store adapter ({@code type() = "CASSANDRA"}).
 *
 * <ul>
 *   <li>{@code schema}: checks a dataset spec against the live table and caches its {@code TableShape}, which
 *       also writes every statement's text (quoted identifiers, bind markers only).</li>
 *   <li>{@code json}: keys and values in the platform's JSON form, encoded by Cassandra itself through
 *       {@code toJson} / {@code fromJson} / {@code INSERT JSON}.</li>
 *   <li>{@code read}: reads of full rows (write time and TTL per column) and of live state, a key set per
 *       statement, each row tied back to the keys that asked for it by its key as stored.</li>
 *   <li>{@code plan}: the delete planner (row or partition deletes, at the cut-off), the anonymising planner (cell
 *       deletes of the clear columns, at the cut-off, rows kept) and their executor (unlogged single-partition batches
 *       of at most {@code max-row-tombstones-per-partition} row deletes).</li>
 *   <li>{@code restore}: restores at cut-off + 1 µs with the remaining TTLs, never over live data; an anonymised
 *       record puts back only its cells, never over a live cell of those columns.</li>
 *   <li>{@code lookup}: forward lookups of an identifier's rows by a partition read or an SAI / secondary index,
 *       refused where they would scan the table.</li>
 *   <li>{@code load}: the load signal from the nodes' virtual tables and JMX.</li>
 *   <li>{@code guard}: the gc_grace guard every plan passes: refuses deletes that could resurrect rows (a replica
 *       down longer than {@code gc_grace_seconds}, {@code gc_grace_seconds = 0} with replicas), warns of missing
 *       repairs and of too many tombstones in one partition.</li>
 *   <li>{@code purge}: when a run's tombstones become purgeable and whether compaction removed them.</li>
 *   <li>{@code jmx}: the one JMX connection to the node at {@code jmx-host}:{@code jmx-port}.</li>
 * </ul>
 *
 * <p>Refused at {@code checkDataset}: counter tables, tables with static columns (partition-level data that
 * neither a row delete nor a deletion record covers), custom types, and a named conditional column.
 */
package io.erasure.store.cassandra;
