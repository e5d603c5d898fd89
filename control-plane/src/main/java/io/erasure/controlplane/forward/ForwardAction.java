package io.erasure.controlplane.forward;

/** What forward deletion does to a dataset, declared per dataset by its owner ({@code forward_policies}). */
public enum ForwardAction {
    /** Delete the identifier's rows, then its copies (the default). */
    DELETE,
    /** Keep the rows as they are, e.g. orders kept as legal records; the request records that a snapshot was kept. */
    KEEP_SNAPSHOT,
    /** Anonymise the rows instead of deleting them: recorded as requested, not carried out yet. */
    ANONYMISE
}
