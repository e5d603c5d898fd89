package io.erasure.controlplane.registry;

/** What forward deletion does to a dataset, declared per dataset by its owner ({@code forward_policies}). */
public enum ForwardAction {
    /** Delete the identifier's rows, then its copies (the default). */
    DELETE,
    /** Keep the rows as they are, e.g. orders kept as legal records; the request records that a snapshot was kept. */
    KEEP_SNAPSHOT,
    /**
     * Keep the rows but clear the policy's columns (set them to null), conditioned on the cut-off and logged
     * write-ahead like a delete, so an anonymisation can be undone; copies of the rows are deleted.
     */
    ANONYMISE
}
